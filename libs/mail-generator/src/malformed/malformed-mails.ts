import { SeededRandom } from '../seeded-random';
import { attachedMessage } from './attached-message';
import { commonHeaders, crlfLines } from './message-lines';
import { deeplyNestedMultipart } from './nested-multipart';

export interface MalformedMail {
  name: string;
  eml: Buffer;
}

export const NESTING_DEPTH = 30;

// "김민준" and "안녕하세요, 회의 자료입니다" in EUC-KR, raw in the headers as old Korean mailers sent them.
const EUC_KR_NAME = Buffer.from('b1e8b9cec1d8', 'hex');
const EUC_KR_SUBJECT = Buffer.from('bec8b3e7c7cfbcbcbfe42c20c8b8c0c720c0dab7e1c0d4b4cfb4d9', 'hex');
// "회의 자료를 보내 드립니다. 확인 부탁드립니다." in EUC-KR
const EUC_KR_BODY = Buffer.from('c8b8c0c720c0dab7e1b8a620bab8b3bb20b5e5b8b3b4cfb4d92e20c8aec0ce20bacec5b9b5e5b8b3b4cfb4d92e', 'hex');

/**
 * Broken and unusual messages as they turn up in real mailboxes; a robust reader must
 * still show each one instead of failing on it. Names are stable, so tests can pick a case.
 */
export function malformedMails(): MalformedMail[] {
  return [
    { name: 'truncated-base64-attachment', eml: Buffer.from(truncatedAttachment()) },
    { name: 'missing-closing-boundary', eml: Buffer.from(missingClosingBoundary()) },
    { name: 'no-content-type', eml: Buffer.from(noContentType()) },
    { name: 'boundary-not-in-body', eml: Buffer.from(boundaryNotInBody()) },
    { name: 'invalid-base64', eml: Buffer.from(invalidBase64()) },
    { name: 'unknown-charset', eml: Buffer.from(unknownCharset()) },
    { name: 'raw-euc-kr-headers', eml: rawEucKrHeaders() },
    { name: 'headers-only', eml: Buffer.from(crlfLines(...commonHeaders('Nothing after the headers', 'headers-only'))) },
    { name: 'lf-line-endings', eml: Buffer.from(lfLineEndings()) },
    { name: 'empty', eml: Buffer.alloc(0) },
    { name: 'deeply-nested-multipart', eml: Buffer.from(deeplyNestedMultipart(NESTING_DEPTH)) },
    { name: 'attached-message-rfc822', eml: Buffer.from(attachedMessage()) },
  ];
}

function truncatedAttachment(): string {
  const base64Lines =
    new SeededRandom('malformed/truncated')
      .bytes(57 * 40)
      .toString('base64')
      .match(/.{76}/g) ?? [];
  const complete = crlfLines(
    ...commonHeaders('Upload cut off in the attachment', 'truncated'),
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="cut-here"',
    '',
    '--cut-here',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'The attachment below was cut off while uploading.',
    '--cut-here',
    'Content-Type: application/pdf; name="report.pdf"',
    'Content-Disposition: attachment; filename="report.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    ...base64Lines.slice(0, 30),
  );
  // 37 characters stop inside a 4-character quantum; no line end and no closing boundary follow
  return complete + base64Lines[30].slice(0, 37);
}

function missingClosingBoundary(): string {
  return crlfLines(
    ...commonHeaders('The last boundary never comes', 'unclosed'),
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="alt"',
    '',
    '--alt',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Plain version. The multipart is never closed.',
    '--alt',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>HTML version. The multipart is <b>never closed</b>.</p>',
  );
}

function noContentType(): string {
  return crlfLines(
    ...commonHeaders('No Content-Type, no MIME-Version', 'no-content-type'),
    '',
    'A reader should assume text/plain in us-ascii, as RFC 2045 says.',
  );
}

function boundaryNotInBody(): string {
  return crlfLines(
    ...commonHeaders('The declared boundary is not used', 'wrong-boundary'),
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="declared-boundary"',
    '',
    '--actual-boundary',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'These parts are delimited by a boundary the header never declared.',
    '--actual-boundary--',
  );
}

function invalidBase64(): string {
  const encoded = Buffer.from('Invalid base64 in the body, 하지만 읽을 수 있어요.').toString('base64');
  // characters outside the base64 alphabet, where a strict decoder gives up
  const corrupted = `${encoded.slice(0, 12)}!${encoded.slice(12, 24)}*${encoded.slice(24, 40)}~ ${encoded.slice(40)}#%`;
  return crlfLines(
    ...commonHeaders('Invalid characters in base64', 'invalid-base64'),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    corrupted,
  );
}

function unknownCharset(): string {
  return crlfLines(
    ...commonHeaders('=?x-unknown?Q?Caf=E9_menu?=', 'unknown-charset'),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset="x-unknown"',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Declared in a charset nobody knows; the bytes are in fact UTF-8: Café ☕ 카페 喫茶店.',
  );
}

function lfLineEndings(): string {
  return crlfLines(
    ...commonHeaders('Bare LF line endings, as Unix tools write them', 'lf-only'),
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="lf"',
    '',
    '--lf',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Every line of this message ends in LF alone.',
    '줄바꿈이 LF 뿐입니다. 改行は LF のみです。',
    '--lf',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    '<p>Every line of this message ends in LF alone.</p>',
    '--lf--',
  ).replace(/\r\n/g, '\n');
}

function rawEucKrHeaders(): Buffer {
  return Buffer.concat([
    Buffer.from('From: '),
    EUC_KR_NAME,
    Buffer.from(' <minjun@broken.example>\r\nTo: Reader <reader@letterbox.example>\r\nSubject: '),
    EUC_KR_SUBJECT,
    Buffer.from(
      crlfLines(
        '',
        'Date: Mon, 02 Mar 2026 10:00:00 +0000',
        'Message-ID: <euc-kr@broken.example>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=euc-kr',
        'Content-Transfer-Encoding: 8bit',
        '',
      ),
    ),
    EUC_KR_BODY,
    Buffer.from('\r\n'),
  ]);
}
