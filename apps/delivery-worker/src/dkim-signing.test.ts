import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { commandLineAct, DomainDkimKeys } from '@letterbox/admin';
import { AuditLog } from '@letterbox/audit';
import { dkimKeyConfig, loadConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher, publishedDkimSource } from '@letterbox/dkim';
import { CachingDnsResolver } from '@letterbox/dns';
import { MOCK_DNS_ZONES, startMockDns, startMockSmtp, zoneTable, type MockDns, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  type SendApiProcess,
} from '@letterbox/testing';
import { startTestWorker, type TestWorker } from './testing/delivery-workers';

describe('delivery worker: outgoing mail is DKIM-signed with the keys the administrator made', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let dns: MockDns;
  let api: SendApiProcess;
  let worker: TestWorker;

  before(async () => {
    db = testDatabase();
    // The demo's DNS: the offices' DKIM keys from the database beside the demo zones.
    dns = await startMockDns({ port: 0, zones: [publishedDkimSource(db.sql), zoneTable(MOCK_DNS_ZONES)] });
    mock = await startMockSmtp({ port: 0, latencyMs: 0, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port));
  });

  after(async () => {
    await worker?.close();
    await api?.close();
    await mock?.close();
    await dns?.close();
    await db?.close();
  });

  test('a send through the API reaches the mock provider signed with RSA and Ed25519 that verify against the records the local DNS serves', async () => {
    const user = await createTestUser(db, 'dkim-worker');
    // As `npm run admin -- dkim` makes them, under the key the worker runs with (the demo's, as the tests run).
    const cipher = DkimKeyCipher.fromSetting(loadConfig(dkimKeyConfig).DKIM_KEY_ENCRYPTION_KEY);
    await new DomainDkimKeys(db.sql, new AuditLog(db.sql), cipher).generate(commandLineAct(user.officeId), user.domain);
    const to = `ann.${randomUUID().slice(0, 8)}@elsewhere.test`;
    const client = new SendClient(api.url, accessTokenFor(user));
    const answer = await client.send({ to: [to], subject: 'Signed by the worker', text: 'Verify me.' });
    assert.equal((await client.until(answer.body.id, ['sent', 'failed'])).status, 'sent');
    const [mail] = mock.messages({ to });
    const resolver = new CachingDnsResolver({ servers: [`127.0.0.1:${dns.port}`], timeoutMs: 2000 }).resolve;
    const { results } = await dkimVerify(mail.raw, { resolver });
    assert.deepEqual(results.map((result) => [result.signingDomain, result.status.result, result.status.aligned]).sort(), [
      [user.domain, 'pass', user.domain],
      [user.domain, 'pass', user.domain],
    ]);
    assert.equal(mock.messages({ account: user.email }).length, 1, 'the provider counts it against the sender, not the bounce address');
  });
});
