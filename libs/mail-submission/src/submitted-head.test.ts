import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { test } from 'node:test';
import { MAX_HEADER_BLOCK } from '@letterbox/mime';
import { HeaderBlockTooLongError, splitAtHeaderEnd } from './header-block-split';
import { submittedHead } from './submitted-head';

const MESSAGE = 'From: Ann <ann@example.test>\r\nBcc: hidden@example.test,\r\n  other@example.test\r\nTo: bob@example.test\r\nSubject: Hi\r\n\r\nBody\r\n';

test('the header block is split off however the client writes it, a byte at a time included', async () => {
  const bytes = Buffer.from(MESSAGE);
  const { head, rest } = await splitAtHeaderEnd(Readable.from(Array.from(bytes, (byte) => Buffer.from([byte]))));
  assert.equal(head.toString(), MESSAGE.slice(0, MESSAGE.indexOf('\r\n\r\n') + 2));
  assert.equal(await text(rest), '\r\nBody\r\n');
});

test('a header block that never ends is refused once past MAX_HEADER_BLOCK', async () => {
  const line = Buffer.from(`X-Filler: ${'x'.repeat(1000)}\r\n`);
  const endless = Readable.from(Array.from({ length: Math.ceil(MAX_HEADER_BLOCK / line.length) + 2 }, () => line));
  await assert.rejects(splitAtHeaderEnd(endless), HeaderBlockTooLongError);
});

test('Bcc goes with its folded lines; a Message-ID and a Date are added when missing; the rest stays byte for byte', () => {
  const block = Buffer.from(MESSAGE.slice(0, MESSAGE.indexOf('\r\n\r\n') + 2));
  const head = submittedHead(block, 'example.test');
  const written = head.block.toString();
  assert.doesNotMatch(written, /bcc|hidden|other@/i);
  assert.match(written, /^From: Ann <ann@example\.test>\r\nTo: bob@example\.test\r\nSubject: Hi\r\nMessage-ID: <[^>]+@example\.test>\r\nDate: .+\r\n$/);
  assert.deepEqual([head.from, head.to, head.subject], [['ann@example.test'], ['bob@example.test'], 'Hi']);

  const given = submittedHead(Buffer.from('From: ann@example.test\r\nMessage-ID: <given@example.test>\r\nDate: Mon, 1 Dec 2026 10:00:00 +0000\r\n'), 'x.test');
  assert.equal(given.messageId, '<given@example.test>');
  assert.doesNotMatch(given.block.toString(), /Message-ID:.*\r\n.*Message-ID|Date:.*\r\n.*Date/s);
});
