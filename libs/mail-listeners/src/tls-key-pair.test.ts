import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sleep, waitFor, withFaultsExpected, writeTestCertificate } from '@letterbox/testing';
import { readTlsKeyPair, watchTlsKeyPair, type TlsKeyPair } from './tls-key-pair';

const quickly = { pollMs: 20, settleMs: 10 };

test('a renewed certificate is given again; a broken one is not, and the next good one is', async () =>
  // The broken certificate's warning is expected.
  withFaultsExpected(async () => {
    const first = await writeTestCertificate();
    const dir = path.dirname(first.certFile);
    const applied: TlsKeyPair[] = [];
    const watch = watchTlsKeyPair(first, (pair) => applied.push(pair), quickly);
    try {
      const second = await writeTestCertificate(dir);
      await waitFor(() => applied.at(-1)?.cert === second.cert, { what: 'the renewed certificate' });
      assert.equal(applied.at(-1)?.key, second.key);

      writeFileSync(`${first.certFile}.new`, 'not a certificate');
      renameSync(`${first.certFile}.new`, first.certFile);
      // Many polls: none may hand the broken file on.
      await sleep(20 * quickly.pollMs);
      assert.equal(applied.at(-1)?.cert, second.cert);

      const third = await writeTestCertificate(dir);
      await waitFor(() => applied.at(-1)?.cert === third.cert, { what: 'the certificate after the broken one' });
    } finally {
      watch.close();
    }
  }));

test("a key that is not the certificate's does not read", async () => {
  const [one, other] = await Promise.all([writeTestCertificate(), writeTestCertificate()]);
  assert.throws(() => readTlsKeyPair({ certFile: one.certFile, keyFile: other.keyFile }), /key values mismatch/);
  assert.deepEqual(readTlsKeyPair(one), { cert: one.cert, key: one.key });
});
