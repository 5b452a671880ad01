import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { MailSectionReader, type ImapMessage } from '@letterbox/mail';
import { scanLayout } from '@letterbox/mime';
import { testBlobStore } from '@letterbox/testing';
import { parseFetchCommand } from '../protocol/fetch-attributes';
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
async function fetched(items: string, options = { withUid: false, modseq: false }): Promise<string> {
  const blobs = testBlobStore();
  const { key } = await blobs.put(EML);
  const { tree } = await scanLayout(EML);
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

  test('reading without PEEK needs \\Seen set, PEEK and RFC822.HEADER do not; BINARY is refused', () => {
    const plan = (items: string) => planFetch(parseFetchCommand([{ type: 'atom', value: '1' }, ...tokens(items)]).items, { withUid: false, modseq: false });
    assert.equal(plan('(BODY[TEXT])').setsSeen, true);
    assert.equal(plan('(BODY.PEEK[TEXT] RFC822.HEADER)').setsSeen, false);
    assert.equal(plan('FAST').needsTree, false);
    assert.deepEqual([plan('ALL').needsTree, plan('ALL').needsEnvelopeOnly], [false, true]);
    assert.deepEqual([plan('FULL').needsTree, plan('FULL').needsEnvelopeOnly], [true, false]);
    assert.throws(() => plan('(BINARY.PEEK[1])'), /BINARY is not supported/);
  });
});
