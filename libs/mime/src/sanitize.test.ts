import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_HTML_DEPTH, sanitizeMailHtml } from './sanitize';

describe('sanitizeMailHtml removes what could run or submit', () => {
  it('strips <script> with its content', () => {
    assert.equal(sanitizeMailHtml('<p>a<script>alert(1)</script>b</p>'), '<p>ab</p>');
    assert.equal(sanitizeMailHtml('<SCRIPT src="https://evil.test/x.js"></SCRIPT>ok'), 'ok');
  });

  it('strips event handler attributes', () => {
    assert.equal(sanitizeMailHtml('<img src="https://x.test/a.png" onerror="alert(1)">'), '<img src="https://x.test/a.png" />');
    assert.equal(sanitizeMailHtml('<div onclick="x()" onmouseover="y()">d</div>'), '<div>d</div>');
    assert.doesNotMatch(sanitizeMailHtml('<svg onload="alert(1)"><circle/></svg><body onload="x()">b</body>'), /onload/i);
  });

  it('strips javascript: links however they are spelt', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java&#x09;script:alert(1)', ' javascript:alert(1)', 'vbscript:x']) {
      const html = sanitizeMailHtml(`<a href="${href}">x</a>`);
      assert.doesNotMatch(html, /href/, href);
      assert.match(html, />x<\/a>$/);
    }
    assert.equal(sanitizeMailHtml('<img src="javascript:alert(1)">'), '<img />');
  });

  it('strips data: links, keeping data: images', () => {
    assert.doesNotMatch(sanitizeMailHtml('<a href="data:text/html,<script>alert(1)</script>">x</a>'), /href|data:/);
    assert.equal(sanitizeMailHtml('<img src="data:image/png;base64,AAAA">'), '<img src="data:image/png;base64,AAAA" />');
  });

  it('strips iframes, forms and their controls, objects, embeds, meta, base and style blocks', () => {
    assert.equal(sanitizeMailHtml('<iframe src="https://evil.test"></iframe>after'), 'after');
    assert.equal(sanitizeMailHtml('<form action="https://evil.test"><input name="pw"><button>Go</button><textarea>t</textarea></form>'), 'Go');
    assert.equal(
      sanitizeMailHtml('<object data="x"></object><embed src="x"><meta http-equiv="refresh" content="0;url=x"><base href="https://evil/"><style>p{}</style>'),
      '',
    );
  });

  it('escapes markup hidden in attribute values', () => {
    assert.equal(sanitizeMailHtml('<p title="&quot;><script>x</script>">t</p>'), '<p title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">t</p>');
  });
});

describe('sanitizeMailHtml keeps what mail layout needs', () => {
  it('keeps tables with their layout attributes and inline styles', () => {
    const table =
      '<table border="1" cellpadding="4" cellspacing="0" width="600" bgcolor="#eeeeee" align="center" style="width:100%">' +
      '<thead><tr><th colspan="2">Head</th></tr></thead>' +
      '<tbody><tr><td colspan="2" rowspan="1" valign="top" style="color:red" bgcolor="#fff">cell</td></tr></tbody></table>';
    assert.equal(sanitizeMailHtml(table), table);
  });

  it('keeps formatting tags', () => {
    const html = '<center><font face="Arial" size="2" color="#333">f</font><span style="font-weight:bold">s</span><u>u</u><s>s</s><hr /></center>';
    assert.equal(sanitizeMailHtml(html), html);
  });

  it('keeps links, opening them in a new tab with rel noopener', () => {
    assert.equal(
      sanitizeMailHtml('<a href="https://x.test/p?q=1&amp;r=2" target="_self" onclick="x()">link</a>'),
      '<a href="https://x.test/p?q=1&amp;r=2" target="_blank" rel="noopener noreferrer nofollow">link</a>',
    );
    assert.equal(sanitizeMailHtml('<a href="mailto:a@x.test">m</a>'), '<a href="mailto:a@x.test" target="_blank" rel="noopener noreferrer nofollow">m</a>');
    assert.match(sanitizeMailHtml('<a href="https://x.test" rel="opener">x</a>'), /rel="noopener noreferrer nofollow"/);
  });

  it('keeps remote images', () => {
    assert.equal(
      sanitizeMailHtml('<img src="https://x.test/a.png" alt="a" width="10" height="20" border="0">'),
      '<img src="https://x.test/a.png" alt="a" width="10" height="20" border="0" />',
    );
  });
});

describe('sanitizeMailHtml and cid: images', () => {
  const urls: Record<string, string> = { 'logo@x': '/api/mails/1/attachments/1.2', 'other@x': '/api/mails/1/attachments/1.3' };
  const resolve = (contentId: string) => urls[contentId];

  it('points cid: images at what the resolver gives, with or without angle brackets, any case', () => {
    assert.equal(
      sanitizeMailHtml('<img src="cid:logo@x" alt="logo"><img src="CID:<other@x>">', resolve),
      '<img src="/api/mails/1/attachments/1.2" alt="logo" /><img src="/api/mails/1/attachments/1.3" />',
    );
  });

  it('blanks a cid: image the resolver does not know', () => {
    const html = sanitizeMailHtml('<img src="cid:missing@x" alt="gone">', resolve);
    assert.doesNotMatch(html, /cid:|missing/);
    assert.match(html, /^<img (src="" )?alt="gone" \/>$/);
  });

  it('leaves other images alone and still sanitizes', () => {
    assert.equal(sanitizeMailHtml('<img src="https://x.test/a.png" onerror="x()">', resolve), '<img src="https://x.test/a.png" />');
    assert.equal(sanitizeMailHtml('<script>x</script><a href="javascript:x">l</a>', resolve), '<a target="_blank" rel="noopener noreferrer nofollow">l</a>');
  });

  it('keeps cid: sources as they are without a resolver', () => {
    assert.equal(sanitizeMailHtml('<img src="cid:logo@x">'), '<img src="cid:logo@x" />');
  });
});

describe('sanitizeMailHtml on hostile nesting', () => {
  const MB = 1024 * 1024;

  for (const [name, html] of Object.entries({
    'elements nested 200,000 deep': '<div>'.repeat(200_000) + 'deep',
    'nesting closed by tags never opened': '<span>'.repeat(150_000) + '</b>'.repeat(150_000),
    'a megabyte of <': '<'.repeat(MB),
  })) {
    it(`finishes in linear time: ${name}`, () => {
      const started = process.hrtime.bigint();
      const safe = sanitizeMailHtml(html);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // Before, the first two took minutes (the parser's stack work grows with depth times tags).
      assert.ok(seconds < 3, `${seconds.toFixed(2)} s`);
      assert.doesNotMatch(safe, /<(span|b|script)\b/);
    });
  }

  it('shows HTML nested deeper than a mail does as its text, escaped', () => {
    const safe = sanitizeMailHtml(`${'<div>'.repeat(MAX_HTML_DEPTH + 1)}a &lt;b&gt; <script>x()</script>`);
    assert.match(safe, /^<div style="white-space:pre-wrap">a &#60;b&#62;\s*<\/div>$/);
  });

  it('keeps the markup of mail nested as deep as real newsletters, with unclosed paragraphs and cells', () => {
    const nested = `${'<table><tr><td><div>'.repeat(40)}<p>one<p>two${'</div></td></tr></table>'.repeat(40)}`;
    const safe = sanitizeMailHtml(nested + '<p>x'.repeat(1000));
    assert.match(safe, /<table><tr><td><div>/);
    assert.match(safe, /<p>two<\/p>/);
  });
});

describe('sanitizeMailHtml on a whole newsletter document', () => {
  const newsletter = [
    '<!DOCTYPE html><html lang="ko" dir="ltr" xmlns="http://www.w3.org/1999/xhtml">',
    '<head><meta charset="utf-8"><title>주간 소식 #12</title><style>p { margin: 0 }</style></head>',
    '<body style="background-color:#f4f4f4;padding:24px 0" bgcolor="#f4f4f4" onload="track()">',
    '<table width="600" align="center" bgcolor="#ffffff"><tr><td>이번 주 소식</td></tr></table>',
    '</body></html>',
  ].join('');

  it("keeps the body's background colour and padding, and the document's language, on wrappers", () => {
    assert.equal(
      sanitizeMailHtml(newsletter),
      '<div lang="ko" dir="ltr"><div style="background-color:#f4f4f4;padding:24px 0" bgcolor="#f4f4f4">' +
        '<table width="600" align="center" bgcolor="#ffffff"><tr><td>이번 주 소식</td></tr></table></div></div>',
    );
  });

  it('drops the <title>, which showed as a stray line above the mail', () => {
    assert.doesNotMatch(sanitizeMailHtml(newsletter), /주간 소식/);
    assert.equal(sanitizeMailHtml('<title>Only a title</title><p>Body</p>'), '<p>Body</p>');
  });

  it('keeps no body attribute the sanitizer would not keep elsewhere', () => {
    assert.equal(sanitizeMailHtml('<body onload="x()" background="https://t.test/p.gif" class="c">b</body>'), '<div>b</div>');
  });
});
