import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTransport } from 'nodemailer';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  type RunningIngestServer,
  type SendApiProcess,
  SendClient,
  sleep,
  startIngestProcess,
  startIngestWorkerProcess,
  startSendApiProcess,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
  logFaultsAsExpected,
} from '@letterbox/testing';
import { startTestWorker, type TestWorker } from './testing/delivery-workers';

// Mail to unknown recipients is refused on purpose here: those warnings are expected.
logFaultsAsExpected();

interface NoticeRow {
  subject: string;
  storage_key: string;
}

/**
 * Bounces end to end, with every part real: a send goes through the delivery worker to the
 * mock provider, which bounces mail to @bounce.example with a DSN through Letterbox's SMTP
 * intake; the ingest worker's bounce stage marks the recipient, stores the sender's notice
 * and suppresses the address, which the next send does not try.
 */
describe('bounces', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  const blobs = testBlobStore();
  let mock: MockSmtp;
  let ingest: RunningIngestServer;
  let ingestWorker: AppProcess;
  let api: SendApiProcess;
  let worker: TestWorker;

  async function newSender(name: string): Promise<{ user: TestUser; client: SendClient }> {
    const user = await createTestUser(db, name);
    return { user, client: new SendClient(api.url, accessTokenFor(user)) };
  }

  async function send(client: SendClient, to: string[], subject = `bounce test ${randomUUID()}`): Promise<number> {
    const answer = await client.send({ to, subject, text: 'Hello' });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    return answer.body.id;
  }

  async function recipientsOf(client: SendClient, sendId: number) {
    return (await client.current(sendId)).recipients ?? [];
  }

  async function noticesOf(user: TestUser): Promise<NoticeRow[]> {
    const { rows } = await db.sql.query<NoticeRow>(
      `SELECT m.subject, m.storage_key FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id WHERE m.user_id = $1 AND b.role = 'inbox'`,
      [user.id],
    );
    return rows;
  }

  /** A DSN as a remote server sends it, from the null sender, to `bounceAddress`, through the SMTP intake. */
  async function deliverDsn(bounceAddress: string, recipient: string, action: string, status: string): Promise<void> {
    await deliverBounce(bounceAddress, [
      'From: MAILER-DAEMON@mx.remote.example',
      `To: <${bounceAddress}>`,
      'Subject: Delivery Status Notification',
      `Message-ID: <${randomUUID()}@mx.remote.example>`,
      'Content-Type: multipart/report; report-type=delivery-status; boundary="r"',
      '',
      '--r',
      'Content-Type: text/plain',
      '',
      'A report.',
      '--r',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.remote.example',
      '',
      `Final-Recipient: rfc822; ${recipient}`,
      `Action: ${action}`,
      `Status: ${status}`,
      `Diagnostic-Code: smtp; ${status.startsWith('4') ? '451' : '550'} ${status} test`,
      '--r--',
      '',
    ]);
  }

  async function deliverBounce(bounceAddress: string, lines: string[]): Promise<void> {
    const raw = lines.join('\r\n');
    const transport = createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, tls: { rejectUnauthorized: false } });
    try {
      await transport.sendMail({ envelope: { from: '', to: [bounceAddress] }, raw });
    } finally {
      transport.close();
    }
  }

  before(async () => {
    db = testDatabase();
    [ingest, ingestWorker, api] = await Promise.all([
      startIngestProcess({ QUEUE_PREFIX: queuePrefix }),
      startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' }),
      startSendApiProcess({ QUEUE_PREFIX: queuePrefix }),
    ]);
    mock = await startMockSmtp({ port: 0, latencyMs: 20, ratePerSecond: 100_000, burst: 100_000, bounceIntake: { host: '127.0.0.1', port: ingest.smtpPort } });
    worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port, { READ_API_PUBLIC_URL: 'http://127.0.0.1:1' }));
  });

  after(async () => {
    await worker?.close();
    await mock?.close();
    await Promise.all([ingestWorker?.stop(), ingest?.close(), api?.close()]);
    await db?.close();
  });

  test('a send to nobody@bounce.example ends bounced with a notice in the Inbox; the address is suppressed, and a second send to it is not tried', async () => {
    const { user, client } = await newSender('bouncer');
    const first = await send(client, ['nobody@bounce.example']);
    const bounced = await waitFor(
      async () => {
        const [recipient] = await recipientsOf(client, first);
        return recipient?.status === 'bounced' ? recipient : undefined;
      },
      { timeoutMs: 30_000, what: () => `send ${first}'s recipient to be bounced` },
    );
    assert.equal(bounced.address, 'nobody@bounce.example');
    assert.match(bounced.diagnostic ?? '', /5\.1\.1/);
    const sentMailId = (await client.current(first)).sentMailId;
    const underSentMail = await fetch(`${api.url}/v2/mails/send/for-mail/${sentMailId}`, { headers: { authorization: `Bearer ${accessTokenFor(user)}` } });
    assert.equal(underSentMail.status, 200, 'the Sent mail finds its send');
    assert.deepEqual(
      ((await underSentMail.json()) as { id: number; recipients: Array<{ status: string }> }).recipients.map(({ status }) => status),
      ['bounced'],
    );
    const noSend = await fetch(`${api.url}/v2/mails/send/for-mail/${Number(sentMailId) + 1_000_000}`, {
      headers: { authorization: `Bearer ${accessTokenFor(user)}` },
    });
    assert.equal(noSend.status, 404, 'a mail no send made has no delivery to show');
    const notices = await waitFor(async () => ((await noticesOf(user)).length > 0 ? noticesOf(user) : undefined), {
      timeoutMs: 30_000,
      what: () => 'the bounce notice in the Inbox',
    });
    assert.deepEqual(
      notices.map(({ subject }) => subject),
      ['Address not found: nobody@bounce.example'],
    );
    const [head] = await blobs.readRanges(notices[0].storage_key, [{ start: 0, end: 2000 }]);
    const { rows: sent } = await db.sql.query<{ message_id: string }>("SELECT request->>'messageId' AS message_id FROM outbound_sends WHERE id = $1", [first]);
    assert.ok(head.toString().includes(`In-Reply-To: ${sent[0].message_id}`), 'the notice answers the sent mail, so it joins its thread');
    const { rows: suppressed } = await db.sql.query<{ address: string; reason: string }>('SELECT address, reason FROM suppressions WHERE office_id = $1', [
      user.officeId,
    ]);
    assert.deepEqual(
      suppressed.map(({ address }) => address),
      ['nobody@bounce.example'],
    );
    assert.match(suppressed[0].reason, /5\.1\.1/);

    const delivered = mock.messages().length;
    const second = await send(client, ['nobody@bounce.example']);
    assert.equal((await recipientsOf(client, second))[0]?.status, 'suppressed', 'told at once, before any worker ran');
    const done = await client.until(second, ['failed']);
    assert.match(done.lastError ?? '', /suppressed/);
    assert.deepEqual(
      (done.recipients ?? []).map(({ address, status }) => ({ address, status })),
      [{ address: 'nobody@bounce.example', status: 'suppressed' }],
    );
    await sleep(200);
    assert.equal(mock.messages().length, delivered, 'the provider never saw the second send');
    assert.equal((await noticesOf(user)).length, 1, 'one notice: a suppressed recipient makes none');
  });

  test('a send to a suppressed address and another goes to the other only', async () => {
    const { user, client } = await newSender('mixed');
    await db.sql.query(`INSERT INTO suppressions (office_id, address, reason) VALUES ($1, 'gone@delivery.test', '550 5.1.1 earlier')`, [user.officeId]);
    const answer = await client.send({ to: ['gone@delivery.test', 'here@delivery.test'], subject: 'mixed', text: 'Hello' });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.deepEqual(
      (answer.body.recipients ?? []).map(({ address, status }) => ({ address, status })),
      [
        { address: 'gone@delivery.test', status: 'suppressed' },
        { address: 'here@delivery.test', status: 'queued' },
      ],
      'the answer itself tells the sender which recipient will not be tried',
    );
    const done = await client.until(answer.body.id, ['sent']);
    assert.deepEqual(
      (done.recipients ?? []).map(({ address, status }) => ({ address, status })),
      [
        { address: 'gone@delivery.test', status: 'suppressed' },
        { address: 'here@delivery.test', status: 'sent' },
      ],
    );
    const taken = mock.messages().filter((mail) => mail.envelope.to.includes('here@delivery.test'));
    assert.deepEqual(
      taken.map((mail) => mail.envelope.to),
      [['here@delivery.test']],
    );
  });

  test('a 5.1.1 refusal during delivery bounces and suppresses the recipient; another 5xx bounces without suppressing', async () => {
    const { user, client } = await newSender('refused');
    mock.configure({ refusedRecipients: ['unknown@delivery.test'] });
    try {
      const id = await send(client, ['unknown@delivery.test']);
      const done = await client.until(id, ['failed']);
      assert.equal(done.recipients?.[0]?.status, 'bounced');
      assert.match(done.recipients?.[0]?.diagnostic ?? '', /550 5\.1\.1/);
    } finally {
      mock.configure({ refusedRecipients: [] });
    }
    mock.configure({ permFailRate: 1 });
    try {
      const id = await send(client, ['policy@delivery.test']);
      const done = await client.until(id, ['failed']);
      assert.equal(done.recipients?.[0]?.status, 'bounced');
      assert.match(done.recipients?.[0]?.diagnostic ?? '', /5\.7\.1/);
    } finally {
      mock.configure({ permFailRate: 0 });
    }
    const { rows } = await db.sql.query<{ address: string }>('SELECT address FROM suppressions WHERE office_id = $1', [user.officeId]);
    assert.deepEqual(
      rows.map(({ address }) => address),
      ['unknown@delivery.test'],
    );
  });

  test('a 4.x.x DSN marks the recipient delayed; a later failure bounces it; forged and unmatched bounces are dropped', async () => {
    const { user, client } = await newSender('delayed');
    const id = await send(client, ['slow@delivery.test']);
    await client.until(id, ['sent']);
    const bounceAddress = mock.messages().find((mail) => mail.envelope.to.includes('slow@delivery.test'))?.envelope.from ?? '';
    assert.match(bounceAddress, /^bounces\+/);

    await deliverDsn(bounceAddress, 'slow@delivery.test', 'delayed', '4.4.1');
    await waitFor(async () => ((await recipientsOf(client, id))[0]?.status === 'delayed' ? true : undefined), { what: () => 'the recipient to be delayed' });
    assert.equal((await client.current(id)).status, 'sent', 'a delay does not end the delivery');

    const [local, domain] = bounceAddress.split('@');
    const forged = `${local.slice(0, -12)}${local.slice(-12) === '000000000000' ? '111111111111' : '000000000000'}@${domain}`;
    await deliverDsn(forged, 'slow@delivery.test', 'failed', '5.1.1');
    await deliverDsn(`bounces+zzzzzz.000000000000@${domain}`, 'slow@delivery.test', 'failed', '5.1.1');
    await deliverDsn(bounceAddress, 'slow@delivery.test', 'failed', '5.2.2');
    await waitFor(async () => ((await recipientsOf(client, id))[0]?.status === 'bounced' ? true : undefined), { what: () => 'the recipient to be bounced' });
    assert.match((await recipientsOf(client, id))[0]?.diagnostic ?? '', /5\.2\.2/, 'the genuine bounce, not a forged one, is recorded');
    const notices = await waitFor(async () => ((await noticesOf(user)).length > 0 ? noticesOf(user) : undefined), { what: () => 'the notice' });
    assert.equal(notices.length, 1, 'the forged and unmatched bounces made no notice');
    const { rows } = await db.sql.query('SELECT 1 FROM suppressions WHERE office_id = $1', [user.officeId]);
    assert.equal(rows.length, 0, 'a full mailbox (5.2.2) is no reason to suppress the address');
  });

  test("a plain bounce (no DSN) naming the recipient and a status code bounces it too; the notice is in the sender's language", async () => {
    const { user, client } = await newSender('plain');
    await db.sql.query(`UPDATE users SET locale = 'ko' WHERE id = $1`, [user.id]);
    const id = await send(client, ['plain@delivery.test', 'fine@delivery.test']);
    await client.until(id, ['sent']);
    const bounceAddress = mock.messages().find((mail) => mail.envelope.to.includes('plain@delivery.test'))?.envelope.from ?? '';
    await deliverBounce(bounceAddress, [
      'From: postmaster@old.example',
      `To: ${bounceAddress}`,
      'Subject: failure notice',
      '',
      'Hi. This is the mail program. I could not deliver your message:',
      '<plain@delivery.test>: 550 5.1.1 no mailbox here by that name',
      '',
    ]);
    await waitFor(async () => ((await recipientsOf(client, id))[0]?.status === 'bounced' ? true : undefined), { what: () => 'the recipient to be bounced' });
    const recipients = await recipientsOf(client, id);
    assert.match(recipients[0].diagnostic ?? '', /550 5\.1\.1 no mailbox/);
    assert.equal(recipients[1].status, 'sent', 'the recipient the bounce does not name is still sent');
    const { rows } = await db.sql.query<{ address: string }>('SELECT address FROM suppressions WHERE office_id = $1', [user.officeId]);
    assert.deepEqual(
      rows.map(({ address }) => address),
      ['plain@delivery.test'],
    );
    const notices = await waitFor(async () => ((await noticesOf(user)).length > 0 ? noticesOf(user) : undefined), { what: () => 'the notice' });
    assert.deepEqual(
      notices.map(({ subject }) => subject),
      ['주소를 찾을 수 없음: plain@delivery.test'],
    );
  });
});
