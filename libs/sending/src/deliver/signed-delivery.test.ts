import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import nodemailer, { type Transporter } from 'nodemailer';
import { commandLineAct, DomainDkimKeys } from '@letterbox/admin';
import { AuditLog } from '@letterbox/audit';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher, DkimKeyDecryptionError, DkimSigningKeys, publishedDkimRecords } from '@letterbox/dkim';
import { TEST_DKIM_KEY_ENCRYPTION_KEY, txtResolver } from '@letterbox/dkim/testing';
import { startMockSmtp, type MockSmtp, type ReceivedMail } from '@letterbox/mock-providers';
import { workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import {
  addTestAlias,
  createTestUser,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  testSettings,
  unlinkKeys,
  type TestUser,
  withFaultsExpected,
} from '@letterbox/testing';
import { SendDelivery } from './send-delivery';
import { SenderRateLimit } from './sender-rate-limit';
import { SendRecords } from '../submit/send-records';
import type { SendRequest } from '../submit/send-request';
import { outgoingMailOptions } from '../testing/outgoing-mail-options';
import { deliveryRecord, FakeAttempt, senderOf, sendRequest } from '../testing/recorded-sends';

describe('SendDelivery: what reaches the provider is DKIM-signed and goes from a bounce address', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  let db: Database;
  let redis: RedisConnection;
  let mock: MockSmtp;
  let smtp: Transporter;
  let delivery: SendDelivery;
  let dkimKeys: DomainDkimKeys;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(testSettings());
    mock = await startMockSmtp({ port: 0, latencyMs: 0 });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: mock.port, secure: false, ignoreTLS: true });
    const rateLimit = new SenderRateLimit(redis, 1000, 1000, queuePrefix);
    delivery = new SendDelivery(db, blobs, smtp, rateLimit, { readApiPublicUrl: 'http://read.test', ...outgoingMailOptions(db) });
    dkimKeys = new DomainDkimKeys(db.sql, new AuditLog(db.sql), DkimKeyCipher.fromSetting(TEST_DKIM_KEY_ENCRYPTION_KEY));
  });

  after(async () => {
    smtp.close();
    await mock.close();
    await unlinkKeys(redis, `${queuePrefix}:*`);
    redis.disconnect();
    await db.close();
  });

  /** A sender whose domain has keys, as `npm run admin -- dkim <domain>` makes them. */
  async function signingSender(name: string): Promise<TestUser> {
    const user = await createTestUser(db, name);
    await dkimKeys.generate(commandLineAct(user.officeId), user.domain);
    return user;
  }

  async function deliver(user: TestUser, request: SendRequest): Promise<{ sendId: number; caught: ReceivedMail[] }> {
    const { send } = await new SendRecords(db).record(senderOf(user), request, { queuePrefix });
    await delivery.deliver({ sendId: send.id }, new FakeAttempt());
    const recipients = new Set([...request.to, ...request.cc]);
    return { sendId: send.id, caught: mock.messages().filter((mail) => mail.envelope.to.some((to) => recipients.has(to))) };
  }

  async function verdicts(raw: Buffer | Readable) {
    const { results } = await dkimVerify(raw, { resolver: txtResolver(await publishedDkimRecords(db.sql)) });
    return results.map((result) => `${result.status.aligned ? 'aligned ' : ''}${result.signingDomain} ${result.status.result}`).sort();
  }

  test('the mock provider catches a message signed with RSA and Ed25519 for the sender’s domain; altered, it verifies no more', async () => {
    const user = await signingSender('signer');
    const to = recipient('ann');
    const { caught } = await deliver(user, sendRequest({ to: [to], cc: [recipient('ben')], subject: 'Signed figures', text: 'Both keys sign this.' }));
    assert.equal(caught.length, 1);
    const [mail] = caught;
    const header = mail.raw
      .toString('latin1')
      .slice(0, mail.raw.indexOf('\r\n\r\n'))
      .replace(/\r\n[ \t]+/g, ' ');
    assert.deepEqual((header.match(/^DKIM-Signature:.*$/gm) ?? []).map((signature) => /a=([a-z0-9-]+)/.exec(signature)?.[1]).sort(), [
      'ed25519-sha256',
      'rsa-sha256',
    ]);
    assert.deepEqual(await verdicts(mail.raw), [`aligned ${user.domain} pass`, `aligned ${user.domain} pass`]);
    const altered = Buffer.from(mail.raw.toString('latin1').replace('Both keys sign this.', 'Wire the money today.'), 'latin1');
    assert.ok(!(await verdicts(altered)).some((verdict) => verdict.endsWith(' pass')));
    const forgedSubject = Buffer.from(mail.raw.toString('latin1').replace('Subject: Signed figures', 'Subject: Urgent\r\nSubject: Signed figures'), 'latin1');
    assert.ok(!(await verdicts(forgedSubject)).some((verdict) => verdict.endsWith(' pass')), 'the oversigned Subject refuses a second one');
  });

  test('a message with a large attachment is signed from the blob’s stream and verifies as the provider got it', async () => {
    const user = await signingSender('large');
    // Random bytes, base64-encoded on the way: 12 MB read from storage twice (signed, then sent), never held whole.
    const stored = await blobs.put(
      Readable.from(
        (function* () {
          for (let index = 0; index < 192; index++) yield randomBytes(64 * 1024);
        })(),
      ),
    );
    const to = recipient('cat');
    const attachment = { filename: 'archive.bin', contentType: 'application/octet-stream', storageKey: stored.key, size: stored.size };
    const { caught } = await deliver(user, sendRequest({ to: [to], html: '<p>The archive.</p>', attachments: [attachment] }));
    assert.equal(caught.length, 1);
    assert.ok(caught[0].raw.length > stored.size);
    assert.deepEqual(await verdicts(caught[0].raw), [`aligned ${user.domain} pass`, `aligned ${user.domain} pass`]);
  });

  test('a redirected message goes out byte for byte behind its trace header, from its SRS envelope sender, signed for the redirecting user', async () => {
    const user = await signingSender('redirecting');
    const original = `From: Ann <ann@vendor.example>\r\nTo: ${user.email}\r\nSubject: Figures\r\nMessage-ID: <${randomUUID()}@vendor.example>\r\n\r\nThe figures, as sent.\r\n`;
    const stored = await blobs.put(Buffer.from(original));
    const trace = `X-Letterbox-Redirected: for <boss@elsewhere.example> by <${user.email}>; Fri, 27 Nov 2026 10:00:00 +0000\r\n`;
    const envelopeFrom = `SRS0=abcdefgh=AB=vendor.example=ann@${user.domain}`;
    const to = recipient('boss');
    const redirect = { storageKey: stored.key, size: stored.size, trace, envelopeFrom };
    const { caught } = await deliver(user, sendRequest({ to: [to], subject: 'Figures', redirect }));
    assert.equal(caught.length, 1);
    assert.equal(caught[0].envelope.from, envelopeFrom);
    const raw = caught[0].raw.toString();
    assert.ok(raw.endsWith(trace + original), 'the original unchanged, its trace header first');
    assert.match(raw, /^DKIM-Signature:/);
    assert.deepEqual(await verdicts(caught[0].raw), [`${user.domain} pass`, `${user.domain} pass`]);
    const returned = await deliver(
      user,
      sendRequest({ to: [recipient('ann')], subject: 'Returned mail', redirect: { ...redirect, trace: '', envelopeFrom: '' } }),
    );
    assert.equal(returned.caught[0].envelope.from, '', 'a returned bounce goes from the null sender');
  });

  test('each message goes from a bounce address naming its send (and its recipient), which parses back; the From header stays the sender’s', async () => {
    const user = await signingSender('verp');
    const [ann, cat, dan] = [recipient('ann'), recipient('cat'), recipient('dan')];
    const { bounceAddresses } = outgoingMailOptions(db);
    const whole = await deliver(user, sendRequest({ to: [ann] }));
    assert.match(whole.caught[0].envelope.from, new RegExp(`^bounces\\+[0-9a-z.]+@${user.domain.replaceAll('.', '\\.')}$`));
    assert.deepEqual(bounceAddresses.parse(whole.caught[0].envelope.from), { sendId: whole.sendId });
    assert.match(whole.caught[0].raw.toString(), new RegExp(`^From: .*<${user.email}>`, 'm'));
    const separately = await deliver(user, sendRequest({ to: [cat, dan], sendSeparately: true }));
    const named = separately.caught.map((mail) => [mail.envelope.to[0], bounceAddresses.parse(mail.envelope.from)]);
    assert.deepEqual(
      named.sort(),
      [
        [cat, { sendId: separately.sendId, recipientIndex: 0 }],
        [dan, { sendId: separately.sendId, recipientIndex: 1 }],
      ].sort(),
    );
    const tampered = whole.caught[0].envelope.from.replace(/^bounces\+[0-9a-z]+/, `bounces+${(whole.sendId + 1).toString(36)}`);
    assert.equal(bounceAddresses.parse(tampered), undefined, 'another send’s id under this mac is refused');
    assert.equal(bounceAddresses.parse(`alice@${user.domain}`), undefined);
  });

  test('keys sealed under another DKIM_KEY_ENCRYPTION_KEY: nothing goes out unsigned, the send records why and is tried again', async () =>
    withFaultsExpected(async () => {
      const user = await signingSender('wrong-key');
      const to = recipient('fay');
      const misconfigured = new SendDelivery(db, blobs, smtp, new SenderRateLimit(redis, 1000, 1000, queuePrefix), {
        readApiPublicUrl: 'http://read.test',
        ...outgoingMailOptions(db),
        dkimKeys: new DkimSigningKeys(db.sql, DkimKeyCipher.fromSetting(Buffer.alloc(32, 0x11).toString('hex'))),
      });
      const { send } = await new SendRecords(db).record(senderOf(user), sendRequest({ to: [to] }), { queuePrefix });
      await assert.rejects(misconfigured.deliver({ sendId: send.id }, new FakeAttempt()), DkimKeyDecryptionError);
      assert.deepEqual(mock.messages({ to }), []);
      const { status, lastError } = await deliveryRecord(db, send.id);
      assert.notEqual(status, 'sent');
      assert.match(lastError ?? '', /does not decrypt under DKIM_KEY_ENCRYPTION_KEY/);
    }));

  test('a sender whose domain has no keys is signed with the office’s own domain’s; an office without keys sends unsigned', async () => {
    const user = await signingSender('alias');
    const otherDomain = `other-${user.domain}`;
    await db.sql.query({ text: 'INSERT INTO domains (office_id, name) VALUES ($1, $2)', values: [user.officeId, otherDomain] });
    await addTestAlias(db, user, `sales@${otherDomain}`);
    const { send } = await new SendRecords(db).record(senderOf(user), sendRequest({ from: `sales@${otherDomain}`, to: [recipient('eve')] }), { queuePrefix });
    await delivery.deliver({ sendId: send.id }, new FakeAttempt());
    const [viaAlias] = mock.messages().filter((mail) => outgoingMailOptions(db).bounceAddresses.parse(mail.envelope.from)?.sendId === send.id);
    assert.ok(viaAlias.envelope.from.endsWith(`@${otherDomain}`));
    assert.deepEqual(await verdicts(viaAlias.raw), [`${user.domain} pass`, `${user.domain} pass`], 'signed, by the office’s domain, not aligned with From');

    const unsigned = await createTestUser(db, 'unsigned');
    const { caught } = await deliver(unsigned, sendRequest({ to: [recipient('dan')] }));
    assert.doesNotMatch(caught[0].raw.toString(), /^DKIM-Signature:/m);
    assert.ok(outgoingMailOptions(db).bounceAddresses.parse(caught[0].envelope.from));
  });
});
