import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import { malformedMails } from './index';
import { headerSection } from './testing/mail-assertions';
import { NESTING_DEPTH } from './malformed/malformed-mails';

function caseNamed(name: string): Buffer {
  return malformedMails().find((mail) => mail.name === name)?.eml ?? assert.fail(`no case named ${name}`);
}

function bodyOf(eml: Buffer): string {
  return eml.subarray(eml.indexOf('\r\n\r\n') + 4).toString('latin1');
}

describe('malformedMails', () => {
  test('holds every listed case once, built the same way each time', () => {
    const names = malformedMails().map((mail) => mail.name);
    assert.deepEqual([...names].sort(), [
      'attached-message-rfc822',
      'boundary-not-in-body',
      'deeply-nested-multipart',
      'empty',
      'headers-only',
      'invalid-base64',
      'lf-line-endings',
      'missing-closing-boundary',
      'no-content-type',
      'raw-euc-kr-headers',
      'truncated-base64-attachment',
      'unknown-charset',
    ]);
    assert.deepEqual(malformedMails(), malformedMails());
  });

  test('truncated-base64-attachment stops inside a base64 quantum with the multipart open', () => {
    const eml = caseNamed('truncated-base64-attachment').toString('latin1');
    assert.ok(!eml.includes('--cut-here--'));
    const lastLine = eml.slice(eml.lastIndexOf('\r\n') + 2);
    assert.match(lastLine, /^[A-Za-z0-9+/]+$/);
    assert.notEqual(lastLine.length % 4, 0);
  });

  test('missing-closing-boundary opens parts but never closes the multipart', () => {
    const eml = caseNamed('missing-closing-boundary').toString('latin1');
    assert.match(eml, /^--alt\r$/m);
    assert.ok(!eml.includes('--alt--'));
  });

  test('no-content-type has no Content-Type header', () => {
    assert.doesNotMatch(headerSection(caseNamed('no-content-type')), /^content-type:/im);
  });

  test('boundary-not-in-body declares a boundary its body never uses', () => {
    const eml = caseNamed('boundary-not-in-body');
    assert.match(headerSection(eml), /boundary="declared-boundary"/);
    assert.ok(!bodyOf(eml).includes('declared-boundary'));
  });

  test('invalid-base64 puts characters outside the base64 alphabet in a base64 body', () => {
    const eml = caseNamed('invalid-base64');
    assert.match(headerSection(eml), /Content-Transfer-Encoding: base64/);
    assert.match(bodyOf(eml), /[^A-Za-z0-9+/=\r\n]/);
  });

  test('unknown-charset names the charset x-unknown', () => {
    assert.match(headerSection(caseNamed('unknown-charset')), /charset="x-unknown"/);
  });

  test('raw-euc-kr-headers carries EUC-KR bytes in the headers, which are not UTF-8', () => {
    const eml = caseNamed('raw-euc-kr-headers');
    const headers = eml.subarray(0, eml.indexOf('\r\n\r\n'));
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(headers));
    assert.match(new TextDecoder('euc-kr').decode(headers), /^Subject: 안녕하세요, 회의 자료입니다$/m);
  });

  test('headers-only has headers and neither a blank line nor a body', () => {
    const eml = caseNamed('headers-only').toString('latin1');
    assert.match(eml, /^Subject: /m);
    assert.ok(!eml.includes('\r\n\r\n'));
  });

  test('lf-line-endings breaks its lines with LF alone', () => {
    const eml = caseNamed('lf-line-endings');
    assert.ok(eml.includes('\n'));
    assert.ok(!eml.includes('\r'));
  });

  test('empty is 0 bytes', () => {
    assert.equal(caseNamed('empty').length, 0);
  });

  test(`deeply-nested-multipart nests ${NESTING_DEPTH} multiparts`, () => {
    const eml = caseNamed('deeply-nested-multipart').toString('latin1');
    assert.equal(eml.match(/^Content-Type: multipart\/mixed;/gm)?.length, NESTING_DEPTH);
    assert.equal(eml.match(/^--nest-level-\d+--\r$/gm)?.length, NESTING_DEPTH);
  });

  test('attached-message-rfc822 carries a whole message as a message/rfc822 part', async () => {
    const parsed = await simpleParser(caseNamed('attached-message-rfc822'));
    const [attached] = parsed.attachments;
    assert.equal(attached.contentType, 'message/rfc822');
    assert.match(attached.content.toString('utf8'), /^Message-ID: <original@hanbit-soft\.example>$/m);
  });

  test('a tolerant parser reads every case without throwing', async () => {
    for (const { name, eml } of malformedMails()) {
      await assert.doesNotReject(simpleParser(eml), name);
    }
  });
});
