import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser, type AddressObject } from 'mailparser';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp, type ReceivedMail } from '@letterbox/mock-providers';
import type { BlobStore } from '@letterbox/storage';
import {
  accessTokenFor,
  type ApiProcess,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  sleep,
  startIngestWorkerProcess,
  startReadApiProcess,
  startSendApiProcess,
  storedSentCopy,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
  logFaultsAsExpected,
} from '@letterbox/testing';
import { startTestWorker, type TestWorker } from './testing/delivery-workers';

// The provider's refusals and outages here are deliberate: its warnings are expected.
logFaultsAsExpected();

interface ReceiptRow {
  recipient_email: string;
  first_read_at: Date | null;
  read_count: number;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((address) => (address.address ?? '').toLowerCase()));
}

/** The header block of a raw message, unfolded. */
function headerBlock(mail: ReceivedMail): string {
  const raw = mail.raw.toString('latin1');
  return raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
}

describe('delivery worker', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let blobs: BlobStore;
  let mock: MockSmtp;
  let readApi: ApiProcess;
  let api: SendApiProcess;
  let worker: TestWorker;
  /** Stores the Sent copies, whose receipt keys a send with read receipts waits for. */
  let copyWorker: AppProcess;
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@delivery.test`;

  /** A sender of the test's own, so the mock's counts per account are the test's alone. */
  async function newSender(name: string): Promise<{ user: TestUser; client: SendClient }> {
    const user = await createTestUser(db, name);
    return { user, client: new SendClient(api.url, accessTokenFor(user)) };
  }

  before(async () => {
    db = testDatabase();
    blobs = testBlobStore();
    mock = await startMockSmtp({ port: 0, latencyMs: 20, ratePerSecond: 100_000, burst: 100_000 });
    readApi = await startReadApiProcess({ env: { QUEUE_PREFIX: queuePrefix } });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    worker = await startTestWorker(deliveryWorkerEnv(queuePrefix, mock.port, { READ_API_PUBLIC_URL: readApi.url }));
    copyWorker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' });
  });

  after(async () => {
    await worker?.close();
    await copyWorker?.stop();
    await api?.close();
    await readApi?.stop();
    await mock?.close();
    await db?.close();
  });

  test('SMTP down, then back: delivered after retries, exactly once', async () => {
    const { user, client } = await newSender('outage');
    const to = recipient('outage');
    mock.configure({ accepting: false });
    let answer;
    try {
      answer = await client.send({ to: [to], subject: 'Through an outage', text: 'eventually' });
      assert.equal(answer.status, 202);
      const id = answer.body.id;
      const failing = await waitFor(
        async () => {
          const current = await client.current(id);
          return current.attempts >= 2 && current;
        },
        { timeoutMs: 10_000, what: 'two failed attempts' },
      );
      assert.notEqual(failing.status, 'sent');
      assert.notEqual(failing.status, 'failed', 'a 421 is temporary');
      assert.match(failing.lastError ?? '', /421/);
      assert.deepEqual(mock.messages({ to }), []);
    } finally {
      mock.configure({ accepting: true });
    }
    const sent = await client.until(answer.body.id, ['sent', 'failed'], 25_000);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    assert.ok(sent.attempts > 1, `attempts: ${sent.attempts}`);
    assert.equal(sent.lastError, null, 'the last error is cleared once sent');
    await sleep(500);
    assert.equal(mock.messages({ to }).length, 1);
    assert.equal(mock.counts()[user.email]?.accepted, 1);
  });

  test('a permanent 5xx fails the send at once, with the provider’s reply, and no further attempts', async () => {
    const { user, client } = await newSender('rejected');
    const to = recipient('rejected');
    mock.configure({ permFailRate: 1 });
    try {
      const answer = await client.send({ to: [to], subject: 'Rejected', text: 'no' });
      const failed = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(failed.status, 'failed');
      assert.match(failed.lastError ?? '', /^550 5\.7\.1 Message rejected permanently/);
      assert.equal(failed.attempts, 1);
      assert.equal(failed.sentAt, null);
      // Longer than the first retries' backoff: nothing may try again.
      await sleep(2500);
      const later = await client.current(answer.body.id);
      assert.equal(later.status, 'failed');
      assert.equal(later.attempts, 1);
      assert.equal(mock.counts()[user.email]?.permFailed, 1);
      assert.deepEqual(mock.messages({ to }), []);
    } finally {
      mock.configure({ permFailRate: 0 });
    }
  });

  test('sent separately, one recipient refused for good does not stop the others: they get theirs, the send says who was refused', async () => {
    const { client } = await newSender('partly');
    const [first, refused, last] = [recipient('first'), recipient('refused'), recipient('last')];
    mock.configure({ refusedRecipients: [refused] });
    try {
      const answer = await client.send({ to: [first, refused, last], subject: 'Partly', text: 'to each', sendSeparately: true });
      const done = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(done.status, 'sent', JSON.stringify(done));
      assert.match(done.lastError ?? '', new RegExp(`refused for good: ${refused.replace(/[.]/g, '\\.')}`));
      assert.equal(done.attempts, 1);
      assert.equal(mock.messages({ to: first }).length, 1);
      assert.equal(mock.messages({ to: last }).length, 1);
      assert.deepEqual(mock.messages({ to: refused }), []);
    } finally {
      mock.configure({ refusedRecipients: [] });
    }
  });

  test('sent separately, every recipient refused: the send fails at once', async () => {
    const { client } = await newSender('all-refused');
    const to = [recipient('gone1'), recipient('gone2')];
    mock.configure({ refusedRecipients: to });
    try {
      const answer = await client.send({ to, subject: 'Nobody', text: 'no', sendSeparately: true });
      const done = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(done.status, 'failed');
      assert.match(done.lastError ?? '', /550 5\.1\.1/);
      assert.equal(done.attempts, 1);
    } finally {
      mock.configure({ refusedRecipients: [] });
    }
  });

  test('send separately to 3 recipients and 1 Bcc: one message each, each showing only its recipient', async () => {
    const { client } = await newSender('separate');
    const to = [recipient('sep1'), recipient('sep2'), recipient('sep3')];
    const bcc = recipient('sep-bcc');
    const everyone = [...to, bcc];
    const answer = await client.send({ to, bcc: [bcc], subject: 'Separately', text: 'Just for you.', sendSeparately: true });
    const sent = await client.until(answer.body.id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    for (const address of everyone) {
      const delivered = mock.messages({ to: address });
      assert.equal(delivered.length, 1, `${address} got one message`);
      const [mail] = delivered;
      assert.deepEqual(mail.envelope.to, [address]);
      const parsed = await simpleParser(mail.raw);
      assert.deepEqual(addresses(parsed.to), [address], `${address}'s message is addressed to them alone`);
      assert.equal(parsed.cc, undefined);
      assert.equal(parsed.bcc, undefined);
      assert.doesNotMatch(headerBlock(mail), /^bcc:/im);
      const raw = mail.raw.toString('latin1').toLowerCase();
      for (const other of everyone.filter((one) => one !== address))
        assert.ok(!raw.includes(other.toLowerCase()), `${address}'s message does not mention ${other}`);
    }
  });

  test('a Bcc recipient is in the envelope only, never in the headers; the sender’s Sent copy keeps it', async () => {
    const { user, client } = await newSender('bcc');
    const to = recipient('visible');
    const cc = recipient('copied');
    const bcc = recipient('hidden');
    const answer = await client.send({ to: [to], cc: [cc], bcc: [bcc], subject: 'With a Bcc', text: 'shh' });
    const sent = await client.until(answer.body.id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const delivered = mock.messages({ account: user.email });
    assert.equal(delivered.length, 1, 'one message for every recipient');
    const [mail] = delivered;
    assert.deepEqual([...mail.envelope.to].sort(), [to, cc, bcc].sort());
    const parsed = await simpleParser(mail.raw);
    assert.deepEqual(addresses(parsed.to), [to]);
    assert.deepEqual(addresses(parsed.cc), [cc]);
    assert.equal(parsed.bcc, undefined);
    assert.doesNotMatch(headerBlock(mail), /^bcc:/im);
    assert.ok(!mail.raw.toString('latin1').toLowerCase().includes(bcc), 'the Bcc address appears nowhere in the message');
    const copy = await storedSentCopy(db, sent.sentMailId);
    const stored = await simpleParser(await readBlob(copy.storageKey));
    assert.deepEqual(addresses(stored.bcc), [bcc], 'the Sent copy shows whom the sender Bcc’d');
  });

  test('read receipts: each recipient’s image records their open, and only theirs', async () => {
    const { user, client } = await newSender('receipts');
    const to = [recipient('reader1'), recipient('reader2')];
    const bcc = recipient('reader-bcc');
    const everyone = [...to, bcc];
    const answer = await client.send({
      to,
      bcc: [bcc],
      subject: 'Did you read it?',
      html: '<html><body><p>Please confirm.</p></body></html>',
      requestReadReceipt: true,
    });
    const sent = await client.until(answer.body.id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const pixels = new Map<string, string>();
    for (const address of everyone) {
      const delivered = mock.messages({ to: address });
      assert.equal(delivered.length, 1, `${address} got one message`);
      assert.deepEqual(delivered[0].envelope.to, [address]);
      const parsed = await simpleParser(delivered[0].raw);
      assert.deepEqual(addresses(parsed.to), to, 'everyone sees the same To');
      assert.ok(!delivered[0].raw.toString('latin1').toLowerCase().includes(bcc) || address === bcc, 'the Bcc recipient is not shown to the others');
      const src = /<img[^>]*\ssrc="([^"]+)"/.exec(parsed.html || '')?.[1];
      assert.ok(src, `${address}'s message holds an image`);
      const url = src.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
      assert.ok(url.startsWith(`${readApi.url}/v2/office/${user.officeId}/receipt-confirm/`), url);
      pixels.set(address, url);
    }
    assert.equal(new Set(pixels.values()).size, everyone.length, 'each recipient has an image of their own');
    const receipts = async () => {
      const { rows } = await db.sql.query<ReceiptRow>('SELECT recipient_email, first_read_at, read_count FROM read_receipts WHERE mail_id = $1', [
        sent.sentMailId,
      ]);
      return new Map(rows.map((row) => [row.recipient_email, row]));
    };
    assert.deepEqual([...(await receipts()).keys()].sort(), [...everyone].sort());
    for (const [index, address] of everyone.entries()) {
      const opened = await fetch(pixels.get(address) as string);
      assert.equal(opened.status, 200);
      assert.equal(opened.headers.get('content-type'), 'image/gif');
      await opened.arrayBuffer();
      const now = await receipts();
      for (const [position, other] of everyone.entries()) {
        const row = now.get(other) as ReceiptRow;
        if (position <= index) {
          assert.ok(row.first_read_at, `${other}'s open is recorded`);
          assert.equal(row.read_count, 1, `${other} read once`);
        } else {
          assert.equal(row.first_read_at, null, `${other} has not opened yet`);
          assert.equal(row.read_count, 0);
        }
      }
    }
  });

  test('a worker of another QUEUE_PREFIX on the same database leaves this prefix’s queued sends alone', async () => {
    const { user, client } = await newSender('scheduled');
    const to = recipient('scheduled');
    const sendAt = new Date(Date.now() + 5000);
    const answer = await client.send({ to: [to], subject: 'Scheduled', text: 'once', sendAt: sendAt.toISOString() });
    assert.equal(answer.status, 202);
    // As if it had been queued two minutes ago: its job is still rightly waiting, delayed, in this prefix's queue.
    await db.sql.query(`UPDATE outbound_sends SET enqueued_at = now() - interval '2 minutes' WHERE id = $1`, [answer.body.id]);
    const elsewhere = await startMockSmtp({ port: 0, latencyMs: 20, ratePerSecond: 100_000, burst: 100_000 });
    const other = await startTestWorker(deliveryWorkerEnv(testQueuePrefix(), elsewhere.port));
    try {
      const sent = await client.until(answer.body.id, ['sent', 'failed']);
      assert.equal(sent.status, 'sent');
      await sleep(1000);
      const here = mock.messages({ to }).length;
      const there = elsewhere.messages({ to }).length;
      console.log(`scheduled send: ${here} message(s) from this prefix's worker, ${there} from the other prefix's`);
      assert.equal(there, 0, 'the other prefix’s worker delivered it');
      assert.equal(here, 1);
      assert.equal(mock.counts()[user.email]?.accepted, 1);
    } finally {
      await other.close();
      await elsewhere.close();
    }
  });

  test('close() releases every Redis connection the worker opened', async () => {
    const extra = await startTestWorker(deliveryWorkerEnv(testQueuePrefix(), mock.port));
    await extra.close();
    assert.equal(extra.leakedRedisSockets, 0, `${extra.leakedRedisSockets} Redis connection(s) left open`);
  });

  async function readBlob(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of blobs.createReadStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
});
