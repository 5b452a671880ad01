import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase } from '@letterbox/testing';
import { DkimKeyCipher } from './dkim-key-cipher';
import { generateDkimKeyPair } from './dkim-key-pair';
import { publishedDkimRecords } from './published-dkim-records';
import { TEST_DKIM_KEY_ENCRYPTION_KEY } from './testing';

describe('the records the offices’ domains publish', () => {
  let db: Database;

  before(() => {
    db = testDatabase();
  });

  after(async () => {
    await db.close();
  });

  test('each active key’s DKIM record by its DNS name, a retired key’s no more', async () => {
    const { domain } = await createTestUser(db, 'published');
    const cipher = DkimKeyCipher.fromSetting(TEST_DKIM_KEY_ENCRYPTION_KEY);
    for (const [selector, algorithm, retired] of [
      ['a1', 'rsa-sha256', false],
      ['a2', 'ed25519-sha256', false],
      ['old', 'rsa-sha256', true],
    ] as const) {
      const pair = await generateDkimKeyPair(algorithm);
      await db.sql.query({
        text: `INSERT INTO dkim_keys (domain_id, selector, algorithm, public_key, private_key_encrypted, retired_at)
               SELECT id, $2, $3, $4, $5, CASE WHEN $6 THEN now() END FROM domains WHERE name = $1`,
        values: [domain, selector, algorithm, pair.publicKey, cipher.encrypt(pair.privateKeyDer), retired],
      });
    }
    const dkim = await publishedDkimRecords(db.sql);
    assert.match(dkim.get(`a1._domainkey.${domain}`) ?? '', /^v=DKIM1; k=rsa; p=MII/);
    assert.match(dkim.get(`a2._domainkey.${domain}`) ?? '', /^v=DKIM1; k=ed25519; p=/);
    assert.equal(dkim.has(`old._domainkey.${domain}`), false);
  });
});
