import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { MailSectionReader, type ImapMessage } from '@letterbox/mail';
import { scanLayout } from '@letterbox/mime';
import { testBlobStore } from '@letterbox/testing';
import { parseFetchCommand } from '../protocol/fetch-attributes';
import { ImapCommandError } from '../protocol/tokens';
import { writeResponse } from '../protocol/response-writer';
import { planFetch } from './fetch-plan';
import { writeFetchResponse } from './fetch-response';
import { ResponseBuffer } from './response-buffer';

const EML = Buffer.from(
  [
    'From: Ann <ann@x.test>',
    'To: bob@x.test',
    'Subject: Hi',
    'Date: Tue, 1 Dec 2026 10:00:00 +0000',
    'Message-ID: <hi@x.test>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'Plain text',
    '--b',
    'Content-Type: text/html',
    '',
    '<p>Html</p>',
    '--b--',
    '',
  ].join('\r\n'),
);

/** Every byte value twice, NULs among them: what a base64 attachment carries. */
const ATTACHMENT = Buffer.from([...Array(512).keys()].map((index) => index % 256));
const QP_TEXT = Buffer.from('Café au lait, soft break=');

/** A text part in quoted-printable, a base64 attachment, a part in an encoding nobody decodes, and a nested multipart. */
const ENCODED_EML = Buffer.from(
  [
    'From: ann@x.test',
    'Subject: Encoded',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="m"',
    '',
    '--m',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Caf=C3=A9 au lait, soft=',
    ' break=3D',
    '--m',
    'Content-Type: application/octet-stream',
    'Content-Transfer-Encoding: base64',
    '',
    ...(ATTACHMENT.toString('base64').match(/.{1,76}/g) ?? []),
    '--m',
    'Content-Type: application/x-thing',
    'Content-Transfer-Encoding: x-uuencode',
    '',
    'begin 644 thing',
    '--m',
    'Content-Type: multipart/alternative; boundary="a"',
    '',
    '--a',
    'Content-Type: text/plain',
    '',
    'inner',
    '--a--',
    '--m--',
    '',
  ].join('\r\n'),
);

const message = (key: string): ImapMessage => ({
  uid: 7,
  mailId: 70,
  modseq: 12,
  flags: { seen: true, flagged: false, answered: true, forwarded: true, deleted: false, draft: false, keywords: ['Work'] },
  receivedAt: new Date(Date.UTC(2026, 11, 1, 9, 5, 3)),
  size: EML.length,
  storageKey: key,
});

/** What a FETCH of `items` writes for the message, as text. */
async function fetched(items: string, options = { withUid: false, modseq: false }, eml = EML): Promise<string> {
  const blobs = testBlobStore();
  const { key } = await blobs.put(eml);
  const { tree } = await scanLayout(eml);
  const written: Buffer[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      written.push(chunk);
      done();
    },
  });
  const out = new ResponseBuffer({ write: (parts) => writeResponse(sink, parts) });
  const plan = planFetch(parseFetchCommand([{ type: 'atom', value: '3' }, ...tokens(items)]).items, options);
  await writeFetchResponse(out, plan, { seq: 3, message: message(key), tree }, new MailSectionReader(blobs));
  await out.flush();
  return Buffer.concat(written).toString('latin1');
}

/** FETCH items as the command parser hands them over: one atom, or a list of atoms (sections with their brackets). */
function tokens(items: string) {
  if (!items.startsWith('(')) return [{ type: 'atom' as const, value: items }];
  const atoms = items.slice(1, -1).match(/[^\s[]+(\[[^\]]*\])?(<[^>]*>)?/g) ?? [];
  return [{ type: 'list' as const, items: atoms.map((value) => ({ type: 'atom' as const, value })) }];
}

describe('FETCH responses', () => {
  test('flags, UID, INTERNALDATE, size and MODSEQ, in the order asked', async () => {
    assert.equal(
      await fetched('(FLAGS UID INTERNALDATE RFC822.SIZE MODSEQ)'),
      `* 3 FETCH (FLAGS (\\Seen \\Answered $Forwarded Work) UID 7 INTERNALDATE " 1-Dec-2026 09:05:03 +0000" RFC822.SIZE ${EML.length} MODSEQ (12))\r\n`,
    );
  });

  test('UID FETCH answers UID first; CHANGEDSINCE adds MODSEQ; a repeated item is answered once', async () => {
    assert.equal(
      await fetched('(FLAGS FLAGS)', { withUid: true, modseq: true }),
      '* 3 FETCH (UID 7 FLAGS (\\Seen \\Answered $Forwarded Work) MODSEQ (12))\r\n',
    );
  });

  test('ENVELOPE and BODYSTRUCTURE from the header and the MIME tree', async () => {
    const response = await fetched('(ENVELOPE BODYSTRUCTURE)');
    assert.match(response, /^\* 3 FETCH \(ENVELOPE \("Tue, 1 Dec 2026 10:00:00 \+0000" "Hi" \(\("Ann" NIL "ann" "x\.test"\)\) /);
    assert.match(response, / BODYSTRUCTURE \(\("text" "plain" .*\)\("text" "html" .*\) "alternative" \("boundary" "b"\).*\)\)\r\n$/);
  });

  test('sections go as literals of their exact bytes: a part, a partial, header fields, the RFC822 forms', async () => {
    assert.equal(await fetched('(BODY.PEEK[1] BODY.PEEK[2]<3.4>)'), '* 3 FETCH (BODY[1] {10}\r\nPlain text BODY[2]<3> {4}\r\nHtml)\r\n');
    assert.equal(await fetched('(BODY.PEEK[HEADER.FIELDS (SUBJECT)])'), '* 3 FETCH (BODY[HEADER.FIELDS (SUBJECT)] {15}\r\nSubject: Hi\r\n\r\n)\r\n');
    assert.equal(await fetched('RFC822'), `* 3 FETCH (RFC822 {${EML.length}}\r\n${EML.toString('latin1')} FLAGS (\\Seen \\Answered $Forwarded Work))\r\n`);
    assert.equal(await fetched('(BODY[1]<20.5>)'), '* 3 FETCH (BODY[1]<20> {0}\r\n FLAGS (\\Seen \\Answered $Forwarded Work))\r\n');
  });

  test('reading without PEEK needs \\Seen set, PEEK and RFC822.HEADER do not; BINARY as BODY', () => {
    const plan = (items: string) => planFetch(parseFetchCommand([{ type: 'atom', value: '1' }, ...tokens(items)]).items, { withUid: false, modseq: false });
    assert.equal(plan('(BODY[TEXT])').setsSeen, true);
    assert.equal(plan('(BODY.PEEK[TEXT] RFC822.HEADER)').setsSeen, false);
    assert.equal(plan('FAST').needsTree, false);
    assert.deepEqual([plan('ALL').needsTree, plan('ALL').needsEnvelopeOnly], [false, true]);
    assert.deepEqual([plan('FULL').needsTree, plan('FULL').needsEnvelopeOnly], [true, false]);
    assert.equal(plan('(BINARY[1])').setsSeen, true);
    assert.equal(plan('(BINARY.PEEK[1] BINARY.SIZE[2])').setsSeen, false);
    assert.equal(plan('(BINARY.SIZE[2])').needsTree, true);
    assert.deepEqual(
      plan('(BINARY.PEEK[1.2]<5.10> BINARY.PEEK[1.2]<5.10> BINARY.SIZE[3])').items.map((item) => ('label' in item ? item.label : item.kind)),
      ['BINARY[1.2]<5>', 'BINARY.SIZE[3]'],
    );
  });
});

describe('FETCH BINARY responses (RFC 3516)', () => {
  const binary = (items: string) => fetched(items, { withUid: false, modseq: false }, ENCODED_EML);

  test('a quoted-printable part decoded, as a literal (no NUL in it), with its decoded size', async () => {
    assert.equal(
      await binary('(BINARY.PEEK[1] BINARY.SIZE[1])'),
      `* 3 FETCH (BINARY[1] {${QP_TEXT.length}}\r\n${QP_TEXT.toString('latin1')} BINARY.SIZE[1] ${QP_TEXT.length})\r\n`,
    );
  });

  test('a base64 attachment decoded, as a literal8 since it holds NULs; partials count decoded bytes', async () => {
    assert.equal(await binary('BINARY.SIZE[2]'), '* 3 FETCH (BINARY.SIZE[2] 512)\r\n');
    assert.equal(await binary('BINARY.PEEK[2]'), `* 3 FETCH (BINARY[2] ~{512}\r\n${ATTACHMENT.toString('latin1')})\r\n`);
    assert.equal(await binary('BINARY.PEEK[2]<250.10>'), `* 3 FETCH (BINARY[2]<250> ~{10}\r\n${ATTACHMENT.subarray(250, 260).toString('latin1')})\r\n`);
    assert.equal(await binary('BINARY.PEEK[2]<500.100>'), `* 3 FETCH (BINARY[2]<500> ~{12}\r\n${ATTACHMENT.subarray(500).toString('latin1')})\r\n`);
    assert.equal(await binary('BINARY.PEEK[2]<600.10>'), '* 3 FETCH (BINARY[2]<600> {0}\r\n)\r\n');
  });

  test('BINARY[] is the whole message; a part within a nested multipart is read, a missing part is empty', async () => {
    assert.equal(await binary('BINARY.PEEK[]'), `* 3 FETCH (BINARY[] {${ENCODED_EML.length}}\r\n${ENCODED_EML.toString('latin1')})\r\n`);
    assert.equal(await binary('(BINARY.PEEK[4.1] BINARY.SIZE[4.1])'), '* 3 FETCH (BINARY[4.1] {5}\r\ninner BINARY.SIZE[4.1] 5)\r\n');
    assert.equal(await binary('(BINARY.PEEK[9] BINARY.SIZE[9])'), '* 3 FETCH (BINARY[9] {0}\r\n BINARY.SIZE[9] 0)\r\n');
  });

  test('an encoding the server cannot decode is NO [UNKNOWN-CTE]; a multipart is NO', async () => {
    const refusal = (status: string, code?: string) => (error: unknown) => error instanceof ImapCommandError && error.status === status && error.code === code;
    await assert.rejects(binary('(BODY.PEEK[1] BINARY.PEEK[3])'), refusal('NO', 'UNKNOWN-CTE'));
    await assert.rejects(binary('BINARY.SIZE[3]'), refusal('NO', 'UNKNOWN-CTE'));
    await assert.rejects(binary('BINARY.PEEK[4]'), refusal('NO', undefined));
  });
});
