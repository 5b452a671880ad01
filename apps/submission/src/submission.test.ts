import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { createTransport } from 'nodemailer';
import { AppPasswords, AppPasswordStore, SecurityEvents } from '@letterbox/accounts';
import { commandLineAct, DomainDkimKeys } from '@letterbox/admin';
import { AuditLog } from '@letterbox/audit';
import { dkimKeyConfig, loadConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher, publishedDkimSource } from '@letterbox/dkim';
import { CachingDnsResolver } from '@letterbox/dns';
import { MOCK_DNS_ZONES, startMockDns, startMockSmtp, zoneTable, type MockDns, type MockSmtp } from '@letterbox/mock-providers';
import {
  createTestUser,
  deliveryWorkerEnv,
  startDeliveryWorkerProcess,
  startIngestWorkerProcess,
  storedSentCopy,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  waitFor,
  writeTestCertificate,
  type AppProcess,
  type TestUser,
} from '@letterbox/testing';
import { startSubmission, type RunningSubmission } from './start-submission';
import { loadSubmissionConfig } from './submission.config';

/** Python's smtplib, as a mail client: STARTTLS, AUTH LOGIN, then a message with its Bcc header kept in DATA. */
const SMTPLIB_CLIENT = `
import json, smtplib, ssl, sys
port, user, password, to, bcc, subject = sys.argv[1:7]
message = f"From: {user}\\r\\nTo: {to}\\r\\nBcc: {bcc}\\r\\nSubject: {subject}\\r\\n\\r\\nHello from smtplib.\\r\\n"
with smtplib.SMTP("127.0.0.1", int(port)) as client:
    client.starttls(context=ssl._create_unverified_context())
    client.ehlo()
    client.user, client.password = user, password
    client.auth("LOGIN", client.auth_login, initial_response_ok=False)
    client.mail(user)
    client.rcpt(to)
    client.rcpt(bcc)
    code, reply = client.data(message.encode())
    print(json.dumps({"code": code, "reply": reply.decode()}))
`;

const wrongPasswordLimit = 3;

describe('SMTP submission: mail clients send through the send pipeline', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  let db: Database;
  let mock: MockSmtp;
  let dns: MockDns;
  let delivery: AppProcess;
  let ingest: AppProcess;
  let submission: RunningSubmission;
  let smtpPort: number;
  let smtpsPort: number;

  before(async () => {
    db = testDatabase();
    const certificate = await writeTestCertificate();
    dns = await startMockDns({ port: 0, zones: [publishedDkimSource(db.sql), zoneTable(MOCK_DNS_ZONES)] });
    mock = await startMockSmtp({ port: 0, latencyMs: 0, ratePerSecond: 100_000, burst: 100_000 });
    [delivery, ingest] = await Promise.all([
      startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port)),
      startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' }),
    ]);
    submission = await startSubmission(
      loadSubmissionConfig({
        ...process.env,
        QUEUE_PREFIX: queuePrefix,
        SUBMISSION_HOST: '127.0.0.1',
        SUBMISSION_PORT: '0',
        SUBMISSIONS_PORT: '0',
        SUBMISSION_TLS_CERT: certificate.certFile,
        SUBMISSION_TLS_KEY: certificate.keyFile,
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: String(wrongPasswordLimit),
      }),
    );
    smtpPort = submission.ports.smtpPort;
    smtpsPort = submission.ports.smtpsPort as number;
  });

  after(async () => {
    await submission?.close();
    await delivery?.stop();
    await ingest?.stop();
    await mock?.close();
    await dns?.close();
    await db?.close();
  });

  /** nodemailer as a mail client: implicit TLS on the SMTPS port, or STARTTLS (or none) on the other. */
  const client = (user: { email: string; password: string }, options: { implicitTls?: boolean; ignoreTLS?: boolean; method?: string } = {}) =>
    createTransport({
      host: '127.0.0.1',
      port: options.implicitTls ? smtpsPort : smtpPort,
      secure: options.implicitTls ?? false,
      ignoreTLS: options.ignoreTLS ?? false,
      tls: { rejectUnauthorized: false },
      auth: { user: user.email, pass: user.password, method: options.method ?? 'PLAIN' },
    });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => assert.fail('the server took it'),
      (error: Error & { responseCode?: number; response?: string }) => error,
    );

  const sendIdOf = (reply: string) => Number(/queued as send (\d+)/.exec(reply)?.[1]);
  const sendOf = (sendId: number) =>
    waitFor(
      async () => {
        const send = await db.prisma.outboundSend.findUnique({ where: { id: BigInt(sendId) } });
        return send && ['sent', 'failed'].includes(send.status) ? send : undefined;
      },
      { what: `send ${sendId} to be delivered` },
    );
  const auditOf = (user: TestUser, action: string) => db.prisma.auditEvent.findMany({ where: { actorUserId: user.id, action }, orderBy: { id: 'asc' } });

  test("Python's smtplib: STARTTLS and AUTH LOGIN; the mail reaches the provider DKIM-signed for every envelope recipient, with no Bcc in it or in Sent", async () => {
    const alice = await createTestUser(db, 'smtplib');
    const cipher = DkimKeyCipher.fromSetting(loadConfig(dkimKeyConfig).DKIM_KEY_ENCRYPTION_KEY);
    await new DomainDkimKeys(db.sql, new AuditLog(db.sql), cipher).generate(commandLineAct(alice.officeId), alice.domain);
    const to = `to.${randomUUID().slice(0, 8)}@elsewhere.test`;
    const bcc = `blind.${randomUUID().slice(0, 8)}@elsewhere.test`;
    const subject = `From Python ${randomUUID()}`;
    const { stdout } = await promisify(execFile)('python3', ['-c', SMTPLIB_CLIENT, String(smtpPort), alice.email, alice.password, to, bcc, subject]);
    const answer = JSON.parse(stdout) as { code: number; reply: string };
    assert.equal(answer.code, 250, answer.reply);

    const send = await sendOf(sendIdOf(answer.reply));
    assert.equal(send.status, 'sent', send.lastError ?? '');
    const [delivered] = mock.messages({ to });
    assert.deepEqual([...delivered.envelope.to].sort(), [bcc, to].sort(), 'every envelope recipient, the blind one too');
    assert.doesNotMatch(delivered.raw.toString(), /^bcc:/im);
    assert.doesNotMatch(delivered.raw.toString(), new RegExp(bcc));
    assert.match(delivered.raw.toString(), new RegExp(`^Subject: ${subject}`, 'm'));
    const resolver = new CachingDnsResolver({ servers: [`127.0.0.1:${dns.port}`], timeoutMs: 2000 }).resolve;
    const { results } = await dkimVerify(delivered.raw, { resolver });
    assert.ok(
      results.length > 0 && results.every((result) => result.status.result === 'pass' && result.signingDomain === alice.domain),
      JSON.stringify(results),
    );

    const copy = await storedSentCopy(db, Number(send.sentMailId));
    assert.equal(copy.mailboxId, alice.mailboxes.sent);
    assert.equal(copy.subject, subject);
    const stored = await text(blobs.createReadStream(copy.storageKey));
    assert.doesNotMatch(stored, /^bcc:/im);
    assert.match(stored, /Hello from smtplib\./);
    const [signIn] = await auditOf(alice, 'auth.sign-in');
    assert.deepEqual(signIn.details, { protocol: 'smtp' });
  });

  test('nodemailer: implicit TLS and AUTH PLAIN, from an alias of the user', async () => {
    const bob = await createTestUser(db, 'nodemailer');
    const alias = `robert@${bob.domain}`;
    await db.sql.query("INSERT INTO addresses (address, office_id, kind, user_id) VALUES ($1, $2, 'alias', $3)", [alias, bob.officeId, bob.id]);
    const to = `to.${randomUUID().slice(0, 8)}@elsewhere.test`;
    const accepted = await client(bob, { implicitTls: true }).sendMail({ from: alias, to, subject: 'Over TLS', text: 'Sent by nodemailer.' });
    const send = await sendOf(sendIdOf(accepted.response));
    assert.equal(send.status, 'sent', send.lastError ?? '');
    assert.equal(mock.messages({ to }).length, 1);
    assert.equal((await storedSentCopy(db, Number(send.sentMailId))).fromAddress, alias);
  });

  test('a wrong password: 535, audited with the protocol; past the limit the account is throttled (454), the right password too', async () => {
    const carol = await createTestUser(db, 'wrong-password');
    const wrong = { email: carol.email, password: 'not the password' };
    for (let attempt = 1; attempt <= wrongPasswordLimit; attempt++) {
      const error = await refusal(client(wrong).sendMail({ from: carol.email, to: 'x@elsewhere.test', text: 'no' }));
      assert.equal(error.responseCode, 535, error.response);
    }
    const failures = await auditOf(carol, 'auth.sign-in.failed');
    assert.equal(failures.length, wrongPasswordLimit);
    assert.deepEqual(failures[0].details, { protocol: 'smtp', reason: 'wrong password' });
    assert.equal((await auditOf(carol, 'auth.lockout')).length, 1);
    const throttled = await refusal(client(carol).sendMail({ from: carol.email, to: 'x@elsewhere.test', text: 'no' }));
    assert.equal(throttled.responseCode, 454, throttled.response);
  });

  test("MAIL FROM or a From that is not the user's own: 553", async () => {
    const dave = await createTestUser(db, 'not-mine');
    const atMailFrom = await refusal(client(dave).sendMail({ from: 'someone@elsewhere.test', to: 'x@elsewhere.test', text: 'no' }));
    assert.equal(atMailFrom.responseCode, 553, atMailFrom.response);
    assert.match(atMailFrom.response ?? '', /^553 5\.7\.1 <someone@elsewhere\.test>: not one of your addresses/);
    const atData = await refusal(
      client(dave).sendMail({ envelope: { from: dave.email, to: ['x@elsewhere.test'] }, from: 'boss@elsewhere.test', to: 'x@elsewhere.test', text: 'no' }),
    );
    assert.equal(atData.responseCode, 553, atData.response);
    assert.equal(await db.prisma.outboundSend.count({ where: { userId: dave.id } }), 0);
  });

  test('AUTH before STARTTLS is refused (538): passwords go over TLS only', async () => {
    const erin = await createTestUser(db, 'plaintext');
    const error = await refusal(client(erin, { ignoreTLS: true }).sendMail({ from: erin.email, to: 'x@elsewhere.test', text: 'no' }));
    assert.equal(error.responseCode, 538, error.response);
    assert.equal((await auditOf(erin, 'auth.sign-in')).length, 0);
  });

  test('two-factor sign-in on: the password is refused (534), an app password signs in', async () => {
    const frank = await createTestUser(db, 'two-factor');
    await db.sql.query("UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = now() WHERE id = $1", [frank.id]);
    const refused = await refusal(client(frank).sendMail({ from: frank.email, to: 'x@elsewhere.test', text: 'no' }));
    assert.equal(refused.responseCode, 534, refused.response);
    const appPasswords = new AppPasswords(db, new AppPasswordStore(db.sql), new SecurityEvents(new AuditLog(db.sql)));
    const current = { userId: frank.id, officeId: frank.officeId, tokenVersion: 0, sessionId: 'test', tokenExpiresAt: 0 };
    const made = await appPasswords.create(current, 'Thunderbird', '127.0.0.1');
    const to = `to.${randomUUID().slice(0, 8)}@elsewhere.test`;
    const accepted = await client({ email: frank.email, password: made.password }, { method: 'LOGIN' }).sendMail({
      from: frank.email,
      to,
      text: 'With an app password.',
    });
    assert.equal((await sendOf(sendIdOf(accepted.response))).status, 'sent');
    const [listed] = await appPasswords.list(current);
    assert.notEqual(listed.lastUsedAt, null, 'its last use is recorded');
  });
});
