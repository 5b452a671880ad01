import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { test } from 'node:test';
import type Mail from 'nodemailer/lib/mailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { generateDkimKeyPair } from '@letterbox/dkim';
import { signedMessage } from './signed-message';

/** A message with an attachment streamed in, its stream recorded: what signing reads, and how. */
function streamedMail() {
  const streams: PassThrough[] = [];
  const compose = (): Mail.Options => {
    const content = new PassThrough();
    streams.push(content);
    content.end(Buffer.alloc(300_000, 'attachment '));
    return {
      from: 'alice@twice.test',
      to: 'bob@example.net',
      subject: 'Compiled twice',
      text: 'See the attachment.',
      messageId: '<twice@twice.test>',
      date: new Date('2026-11-27T08:00:00Z'),
      attachments: [{ filename: 'notes.txt', content }],
    };
  };
  return { compose, streams };
}

test('with one base boundary, two compilations of a message with a streamed attachment are byte-identical', async () => {
  const { compose } = streamedMail();
  const compile = () => new MailComposer({ ...compose(), baseBoundary: 'fixedboundary01' } as Mail.Options).compile().createReadStream();
  const [first, second] = [await text(compile()), await text(compile())];
  assert.equal(first, second);
  assert.match(first, /fixedboundary01/);
});

test('the signer reads the message as a stream compiled from fresh attachment streams; the provider gets the second compilation', async () => {
  const { compose, streams } = streamedMail();
  const pair = await generateDkimKeyPair('ed25519-sha256');
  const key = {
    domain: 'twice.test',
    selector: 'e',
    algorithm: pair.algorithm,
    privateKey: createPrivateKey({ key: pair.privateKeyDer, format: 'der', type: 'pkcs8' }),
  };
  const message = await signedMessage(compose, [key]);
  assert.ok(message instanceof Readable);
  assert.equal(streams.length, 2, 'compiled twice, each time from its own attachment stream');
  assert.ok(streams[0].readableEnded, 'the first read through to its end by the signer');
  assert.ok(!streams[1].readableEnded, 'the second not read before the message is sent');
  const sent = await text(message);
  assert.match(sent, /^DKIM-Signature: /);
  assert.match(sent, /Message-ID: <twice@twice\.test>/);
});
