import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { DkimKeyCipher, DkimKeyDecryptionError } from './dkim-key-cipher';

test('a private key sealed under the key opens under it, and under no other: a clear error, not a garbage key', () => {
  const der = randomBytes(1200);
  const cipher = DkimKeyCipher.fromSetting(randomBytes(32).toString('hex'));
  const sealed = cipher.encrypt(der);
  assert.ok(!sealed.includes(der.subarray(0, 64)), 'the stored value does not hold the key in the clear');
  assert.deepEqual(cipher.decrypt(sealed), der);
  assert.throws(() => DkimKeyCipher.fromSetting(randomBytes(32).toString('base64')).decrypt(sealed), DkimKeyDecryptionError);
  assert.throws(() => DkimKeyCipher.fromSetting(randomBytes(32).toString('base64')).decrypt(sealed), /does not decrypt under DKIM_KEY_ENCRYPTION_KEY/);
  const altered = Buffer.from(sealed);
  altered[altered.length - 1] ^= 1;
  assert.throws(() => cipher.decrypt(altered), DkimKeyDecryptionError);
});
