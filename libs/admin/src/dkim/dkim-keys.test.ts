import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher, DkimKeyDecryptionError } from '@letterbox/dkim';
import { TEST_DKIM_KEY_ENCRYPTION_KEY } from '@letterbox/dkim/testing';
import { testDatabase } from '@letterbox/testing';
import { DkimKeyNotFoundError, UnknownDomainError } from '../admin-errors';
import { adminFixture, auditActions } from '../testing/admin-fixture';

describe('admin: the DKIM keys of an office’s domains', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  test('a generation stores each private key sealed under the setting, opening to the key its record publishes; no other key opens it', async () => {
    const admin = await adminFixture(db);
    const made = await admin.dkimKeys.generate(admin.act, admin.domain);
    const { rows } = await db.sql.query<{ selector: string; public_key: string; private_key_encrypted: Buffer }>(
      'SELECT k.selector, k.public_key, k.private_key_encrypted FROM dkim_keys k JOIN domains d ON d.id = k.domain_id WHERE d.office_id = $1',
      [admin.office.id],
    );
    assert.deepEqual(rows.map((row) => row.selector).sort(), made.map((key) => key.selector).sort());
    const cipher = DkimKeyCipher.fromSetting(TEST_DKIM_KEY_ENCRYPTION_KEY);
    for (const row of rows) {
      const privateKey = createPrivateKey({ key: cipher.decrypt(row.private_key_encrypted), format: 'der', type: 'pkcs8' });
      const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
      // RSA publishes the whole SubjectPublicKeyInfo; Ed25519 only its 32 key bytes (RFC 8463).
      assert.ok(spki.toString('base64') === row.public_key || spki.subarray(-32).toString('base64') === row.public_key);
      assert.throws(() => DkimKeyCipher.fromSetting(Buffer.alloc(32, 1).toString('hex')).decrypt(row.private_key_encrypted), DkimKeyDecryptionError);
    }
    assert.deepEqual(await auditActions(db, admin.office.id), ['office.create', 'dkim.generate']);
  });

  test('a key retired is shown so and retired once; a domain of another office is unknown, and nothing is recorded for it', async () => {
    const admin = await adminFixture(db);
    const other = await adminFixture(db);
    const [first] = await admin.dkimKeys.generate(admin.act, admin.domain);
    const retired = await admin.dkimKeys.retire(admin.act, admin.domain, first.selector);
    assert.ok(retired.retiredAt);
    await assert.rejects(admin.dkimKeys.retire(admin.act, admin.domain, first.selector), DkimKeyNotFoundError);
    await assert.rejects(other.dkimKeys.generate(other.act, admin.domain), UnknownDomainError);
    await assert.rejects(other.dkimKeys.retire(other.act, admin.domain, first.selector), UnknownDomainError);
    await assert.rejects(other.records.ofDomain(other.office.id, admin.domain), UnknownDomainError);
    const records = await admin.records.ofDomain(admin.office.id, admin.domain.toUpperCase());
    assert.deepEqual(
      records.dkim.filter((key) => key.retiredAt !== null).map((key) => key.selector),
      [first.selector],
    );
    assert.equal(records.dkim.filter((key) => key.retiredAt === null).length, 1, 'its sibling of the other algorithm still signs');
    assert.deepEqual(records.spf, { dnsName: admin.domain, txt: 'v=spf1 ip4:127.0.0.1 ~all' });
    assert.deepEqual(await auditActions(db, other.office.id), ['office.create']);
  });
});
