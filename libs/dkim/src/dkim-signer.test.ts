import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { dkimSignatureHeaders } from './dkim-signer';
import { testSigningKeys, txtResolver } from './testing';

const message = [
  'From: Alice Kim <alice@sign.test>',
  'To: bob@example.net',
  'Subject: Quarterly figures',
  'Date: Fri, 27 Nov 2026 08:00:00 +0000',
  'Message-ID: <q4@sign.test>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'The figures are attached.',
  '',
].join('\r\n');

async function verdicts(signed: string | Buffer, records: Map<string, string>) {
  const { results } = await dkimVerify(signed, { resolver: txtResolver(records) });
  return results.map((result) => `${result.signingDomain} ${result.status.result}`);
}

describe('dkim signer', () => {
  test('an RSA and an Ed25519 signature side by side, both verifying; the headers that matter are oversigned', async () => {
    const { keys, records } = await testSigningKeys('sign.test');
    const signatures = await dkimSignatureHeaders(Readable.from([message]), keys);
    assert.match(signatures, /a=rsa-sha256/);
    assert.match(signatures, /a=ed25519-sha256/);
    const [rsa] = signatures.split(/\r\n(?=DKIM-Signature)/);
    const h = /h=([^;]+);/.exec(rsa.replace(/\r\n\s+/g, ''))?.[1] ?? '';
    const named = h.split(':').map((name) => name.trim().toLowerCase());
    assert.equal(named.filter((name) => name === 'from').length, 2, 'From: present once, named twice');
    assert.equal(named.filter((name) => name === 'cc').length, 1, 'Cc: absent, named once');
    assert.match(rsa, /c=relaxed\/relaxed/);
    assert.deepEqual(await verdicts(signatures + message, records), ['sign.test pass', 'sign.test pass']);
  });

  test('an altered body or a header added on the way: neither signature passes', async () => {
    const { keys, records } = await testSigningKeys('sign.test');
    const signatures = await dkimSignatureHeaders(Readable.from([message]), keys);
    // mailauth answers an altered body 'neutral' ("body hash did not verify"), as RFC 6376 §6.1.3 allows: not a pass either way.
    assert.deepEqual(await verdicts(signatures + message.replace('attached', 'wired'), records), ['sign.test neutral', 'sign.test neutral']);
    assert.deepEqual(await verdicts(signatures + message.replace('Subject:', 'Subject: Urgent\r\nSubject:'), records), ['sign.test fail', 'sign.test fail']);
  });

  test('a large message streams through the signer, read as it is hashed and never held', async () => {
    const { keys, records } = await testSigningKeys('sign.test');
    const header = message.slice(0, message.indexOf('\r\n\r\n') + 4);
    const line = `${'x'.repeat(76)}\r\n`;
    const chunk = line.repeat(1000);
    const chunks = 1000; // 78 MB
    let produced = 0;
    let consumed = 0;
    let mostAhead = 0;
    async function* body() {
      yield header;
      for (let index = 0; index < chunks; index++) {
        produced += chunk.length;
        mostAhead = Math.max(mostAhead, produced - consumed);
        yield chunk;
      }
    }
    const counted = new PassThrough();
    counted.on('data', (data: Buffer) => (consumed += data.length));
    const signatures = await dkimSignatureHeaders(Readable.from(body()).pipe(counted), keys);
    assert.equal(consumed, chunks * chunk.length + header.length);
    assert.ok(mostAhead < 2 * 1024 * 1024, `at most ${mostAhead} bytes were read ahead of the signer`);
    async function* signed() {
      yield signatures + header;
      for (let index = 0; index < chunks; index++) yield chunk;
    }
    const { results } = await dkimVerify(Readable.from(signed()), { resolver: txtResolver(records) });
    assert.deepEqual(
      results.map((result) => result.status.result),
      ['pass', 'pass'],
    );
  });
});
