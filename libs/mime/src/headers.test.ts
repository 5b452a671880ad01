import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAddresses, parseHeaderBlock, summarizeHeaders } from './header-block';
import { scanLayout } from './scan-layout';
import { compose, eml, slice } from './testing/mime-fixtures';

const summarize = (lines: string[]) => summarizeHeaders(parseHeaderBlock(eml([...lines, '', ''])));
const valueOf = (lines: string[], name: string) => parseHeaderBlock(eml(lines)).find((header) => header.name === name)?.value;

describe('parseHeaderBlock', () => {
  it('keeps headers in order, names as written, folded lines unfolded', () => {
    const headers = parseHeaderBlock(eml(['Subject: first', '\tfolded with tab', 'X-Custom: a', '  b', 'received: one', 'Received: two', '', '']));
    assert.deepEqual(headers, [
      { name: 'Subject', value: 'first folded with tab' },
      { name: 'X-Custom', value: 'a b' },
      { name: 'received', value: 'one' },
      { name: 'Received', value: 'two' },
    ]);
  });

  it('skips lines that are not headers', () => {
    assert.deepEqual(parseHeaderBlock(eml(['no colon here', ': no name', 'Ok: yes', ''])), [{ name: 'Ok', value: 'yes' }]);
    assert.deepEqual(parseHeaderBlock(Buffer.alloc(0)), []);
  });

  it('decodes encoded words in Q and B, across folds and charsets', () => {
    assert.equal(valueOf(['Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?='], 'Subject'), 'Grüße aus Köln');
    assert.equal(valueOf(['Subject: =?utf-8?B?7JWI64WV7ZWY7IS47JqUIPCfmIA=?= hello'], 'Subject'), '안녕하세요 😀 hello');
    assert.equal(valueOf(['Subject: =?utf-8?q?one?=', ' =?utf-8?q?_two?= three'], 'Subject'), 'one two three');
    assert.equal(valueOf(['Subject: =?ISO-8859-1?Q?caf=E9?= =?KOI8-R?B?8NLJ18XU?='], 'Subject'), 'caféПривет');
    assert.equal(valueOf(['Subject: Re: [list] =?utf-8?Q?=E2=9C=93?= done'], 'Subject'), 'Re: [list] ✓ done');
  });

  it('leaves broken encoded words readable', () => {
    assert.equal(valueOf(['Subject: =?utf-8?Q?unterminated'], 'Subject'), '=?utf-8?Q?unterminated');
    assert.equal(typeof valueOf(['Subject: =?no-such-charset?Q?a=E9?='], 'Subject'), 'string');
    assert.equal(typeof valueOf(['Subject: =?utf-8?B?!!!?='], 'Subject'), 'string');
  });

  it('reads raw UTF-8 header bytes as UTF-8 and other 8-bit bytes as latin1', () => {
    assert.equal(parseHeaderBlock(Buffer.from('Subject: 안녕 Grüße\r\n'))[0].value, '안녕 Grüße');
    assert.equal(parseHeaderBlock(Buffer.from('Subject: Gr\u00fc\u00dfe\r\n', 'latin1'))[0].value, 'Grüße');
  });
});

describe('summarizeHeaders', () => {
  it('summarizes what nodemailer composes, non-ASCII included', async () => {
    const message = await compose({
      from: '김철수 <Kim@Letterbox.test>',
      to: ['"Doe, Jane" <jane@x.test>', 'bob@x.test'],
      cc: 'Zoë <zoe@x.test>',
      subject: 'Grüße 😀 — a long subject line that nodemailer will have to fold over more than one line',
      messageId: '<id-1@letterbox.test>',
      date: new Date('2024-03-01T12:34:56Z'),
      text: 'x',
    });
    const layout = await scanLayout(message);
    const summary = summarizeHeaders(parseHeaderBlock(slice(message, { start: 0, end: layout.headerEnd })));
    assert.deepEqual(summary, {
      messageId: '<id-1@letterbox.test>',
      subject: 'Grüße 😀 — a long subject line that nodemailer will have to fold over more than one line',
      from: { name: '김철수', address: 'kim@letterbox.test' },
      to: [
        { name: 'Doe, Jane', address: 'jane@x.test' },
        { name: '', address: 'bob@x.test' },
      ],
      cc: [{ name: 'Zoë', address: 'zoe@x.test' }],
      bcc: [],
      date: new Date('2024-03-01T12:34:56Z'),
      inReplyTo: undefined,
      references: [],
    });
  });

  it('keeps raw UTF-8 whose last byte is 0xA0, which String#trim would take for a no-break space', () => {
    const block = Buffer.from('Subject: 예산 검토\r\nFrom: 검토 <a@x.test>\r\n\r\n');
    const summary = summarizeHeaders(parseHeaderBlock(block));
    assert.equal(summary.subject, '예산 검토');
    assert.equal(summary.from?.name, '검토');
  });

  it('reads In-Reply-To and the newest References as Message-IDs, ignoring what lies between them', () => {
    const many = Array.from({ length: 30 }, (_, index) => `<r${index}@x.test>`).join('\r\n ');
    const summary = summarize(['In-Reply-To: (a comment) <parent@x.test>', `References: junk ${many}`]);
    assert.equal(summary.inReplyTo, '<parent@x.test>');
    assert.equal(summary.references.length, 20);
    assert.equal(summary.references[0], '<r10@x.test>');
    assert.equal(summary.references[19], '<r29@x.test>');
  });

  it('decodes encoded words in From', () => {
    assert.deepEqual(summarize(['From: =?utf-8?Q?J=C3=BCrgen_M=C3=BCller?= <jm@x.test>']).from, { name: 'Jürgen Müller', address: 'jm@x.test' });
    assert.deepEqual(summarize(['From: "=?utf-8?B?7ZmN6ri464+Z?=" <hong@x.test>']).from, { name: '홍길동', address: 'hong@x.test' });
  });

  it('keeps an encoded display name with commas or quotes as one name', () => {
    assert.deepEqual(summarize(['From: =?utf-8?Q?M=C3=BCller=2C_J=C3=BCrgen?= <jm@x.test>']).from, { name: 'Müller, Jürgen', address: 'jm@x.test' });
    assert.deepEqual(summarize(['To: =?utf-8?Q?a=3B_b=3A?= <c@x.test>, z@x.test']).to, [
      { name: 'a; b:', address: 'c@x.test' },
      { name: '', address: 'z@x.test' },
    ]);
    assert.deepEqual(summarize(['To: =?utf-8?B?IkRvZSwgSm9obiI=?= <j@x.test>']).to, [{ name: 'Doe, John', address: 'j@x.test' }]);
    assert.deepEqual(summarize(['To: =?utf-8?Q?say_=22hi=22_=5C_bye?= <q@x.test>']).to, [{ name: 'say "hi" \\ bye', address: 'q@x.test' }]);
  });

  it('never takes an address out of an encoded display name', () => {
    const summary = summarize([
      'From: =?utf-8?Q?ceo=40bank.test_=3Cceo=40bank.test=3E?= <attacker@evil.test>',
      'To: "=?utf-8?Q?=22_=3Cvictim=40x.test=3E_=22?=" <real@x.test>',
    ]);
    assert.deepEqual(summary.from, { name: 'ceo@bank.test <ceo@bank.test>', address: 'attacker@evil.test' });
    assert.deepEqual(summary.to, [{ name: '<victim@x.test>', address: 'real@x.test' }]);
    const shown = valueOf(['From: =?utf-8?Q?ceo=40bank.test_=3Cceo=40bank.test=3E?= <attacker@evil.test>'], 'From');
    assert.equal(shown, '"ceo@bank.test <ceo@bank.test>" <attacker@evil.test>');
  });

  it('flattens address groups and drops entries without an address', () => {
    const summary = summarize(['To: Friends: a@x.test, "B" <B@x.test>;, c@x.test', 'Cc: undisclosed-recipients:;', 'Bcc: =?utf-8?Q?Gr=C3=BCppe?=: d@x.test;']);
    assert.deepEqual(summary.to, [
      { name: '', address: 'a@x.test' },
      { name: 'B', address: 'b@x.test' },
      { name: '', address: 'c@x.test' },
    ]);
    assert.deepEqual(summary.cc, []);
    assert.deepEqual(summary.bcc, [{ name: '', address: 'd@x.test' }]);
    assert.deepEqual(parseAddresses(['Team: ;', 'nobody', '']), []);
  });

  it('joins repeated address headers and takes the first From', () => {
    const summary = summarize(['From: first@x.test', 'From: second@x.test', 'To: a@x.test', 'To: b@x.test, c@x.test']);
    assert.equal(summary.from?.address, 'first@x.test');
    assert.deepEqual(
      summary.to.map((entry) => entry.address),
      ['a@x.test', 'b@x.test', 'c@x.test'],
    );
  });

  it('reads raw UTF-8 display names', () => {
    assert.deepEqual(summarizeHeaders(parseHeaderBlock(Buffer.from('From: 김철수 <kim@x.test>\r\n'))).from, { name: '김철수', address: 'kim@x.test' });
  });

  it('gives defaults for a message with no headers it knows', () => {
    assert.deepEqual(summarize(['X-Other: 1']), {
      messageId: undefined,
      subject: '',
      from: undefined,
      to: [],
      cc: [],
      bcc: [],
      date: undefined,
      inReplyTo: undefined,
      references: [],
    });
    assert.deepEqual(summarizeHeaders([]), {
      messageId: undefined,
      subject: '',
      from: undefined,
      to: [],
      cc: [],
      bcc: [],
      date: undefined,
      inReplyTo: undefined,
      references: [],
    });
  });

  it('trims the Message-ID and ignores an empty one', () => {
    assert.equal(summarize(['Message-ID:   <a@b>  ']).messageId, '<a@b>');
    assert.equal(summarize(['Message-ID: ']).messageId, undefined);
  });

  it('parses RFC 5322 dates, with zones and comments', () => {
    assert.deepEqual(summarize(['Date: Tue, 1 Jul 2003 10:52:37 +0200']).date, new Date('2003-07-01T08:52:37Z'));
    assert.deepEqual(summarize(['Date: Tue, 1 Jul 2003 10:52:37 +0200 (CEST)']).date, new Date('2003-07-01T08:52:37Z'));
    assert.deepEqual(summarize(['Date: 1 Jul 2003 10:52 -0500']).date, new Date('2003-07-01T15:52:00Z'));
    assert.deepEqual(summarize(['Date: Tue,', ' 1 Jul 2003 10:52:37 GMT']).date, new Date('2003-07-01T10:52:37Z'));
  });

  it('gives no date when Date is missing, empty or not a date', () => {
    assert.equal(summarize(['Subject: no date']).date, undefined);
    for (const bad of ['', 'not a date', 'yesterday', '1', '12345', 'Friday 13', 'Mon, 32 Jan 2024 10:00:00 +0000', 'Wed, 17 Jan 2024 25:00:00 +0000']) {
      assert.equal(summarize([`Date: ${bad}`]).date, undefined, bad);
    }
  });
});
