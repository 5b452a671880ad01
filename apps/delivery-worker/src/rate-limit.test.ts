import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import { JobQueues } from '@letterbox/queue';
import {
  accessTokenFor,
  type AppProcess,
  busiestWindow,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  type SendStatus,
  startDeliveryWorkerProcess,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  waitFor,
} from '@letterbox/testing';

const RATE_PER_SECOND = 5;
const BURST = 5;
const A_SENDS = 30;
const B_SENDS = 5;
/** How much the delay from a token to the provider's acceptance may vary: see the bound below. */
const JITTER_MS = 500;

describe('per-sender rate limit shared by two worker processes', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: SendApiProcess;
  let workers: AppProcess[] = [];
  let senderA: TestUser;
  let senderB: TestUser;
  let queues: JobQueues;

  before(async () => {
    db = testDatabase();
    // The provider imposes no limit and answers at once: whatever pacing shows is the workers'.
    mock = await startMockSmtp({ port: 0, latencyMs: 0, ratePerSecond: 1_000_000, burst: 1_000_000 });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    const env = deliveryWorkerEnv(queuePrefix, mock.port, { SENDER_RATE_PER_SECOND: String(RATE_PER_SECOND), SENDER_BURST: String(BURST) });
    workers = await Promise.all([startDeliveryWorkerProcess(env), startDeliveryWorkerProcess(env)]);
    senderA = await createTestUser(db, 'busy');
    senderB = await createTestUser(db, 'quiet');
    queues = testQueues(queuePrefix);
  });

  after(async () => {
    const exits = await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
    await queues?.close();
    await api?.close();
    await mock?.close();
    await db?.close();
    assert.deepEqual(
      exits,
      workers.map(() => 0),
      workers.map((worker) => worker.output()).join('\n---\n'),
    );
  });

  /**
   * Fresh processes compile code and open SMTP connections on their first deliveries, which
   * would delay those acceptances and squeeze the first window: sends from other senders
   * (each within its own burst) warm both processes first.
   */
  async function warmUp(): Promise<void> {
    const ids: Array<[SendClient, number]> = [];
    for (let index = 0; index < 4; index++) {
      const user = await createTestUser(db, `warm${index}`);
      const client = new SendClient(api.url, accessTokenFor(user));
      for (let one = 0; one < 3; one++)
        ids.push([client, (await client.send({ to: [`warm${index}.${one}.${randomUUID().slice(0, 8)}@warm.test`], text: 'warm' })).body.id]);
    }
    for (const [client, id] of ids) assert.equal((await client.until(id, ['sent', 'failed'])).status, 'sent');
  }

  test(`sender A's ${A_SENDS} sends are paced at ${RATE_PER_SECOND}/s (burst ${BURST}) across both processes; sender B is not held up`, async () => {
    assert.equal(await queues.all()[0].getWorkersCount(), 2, 'two worker processes consume the queue');
    await warmUp();
    const clientA = new SendClient(api.url, accessTokenFor(senderA));
    const clientB = new SendClient(api.url, accessTokenFor(senderB));
    const run = randomUUID().slice(0, 8);
    const answersA = await Promise.all(
      Array.from({ length: A_SENDS }, (_, index) => clientA.send({ to: [`a${index}.${run}@paced.test`], subject: `A ${index}`, text: 'a' })),
    );
    const answersB = await Promise.all(
      Array.from({ length: B_SENDS }, (_, index) => clientB.send({ to: [`b${index}.${run}@paced.test`], subject: `B ${index}`, text: 'b' })),
    );
    for (const answer of [...answersA, ...answersB]) assert.equal(answer.status, 202, JSON.stringify(answer.body));

    const settled = async (client: SendClient, ids: number[]) => {
      const all = await Promise.all(ids.map((id) => client.current(id)));
      return all.every((one) => one.status === 'sent' || one.status === 'failed') && all;
    };
    const statusesB = await waitFor(
      () =>
        settled(
          clientB,
          answersB.map((answer) => answer.body.id),
        ),
      { timeoutMs: 15_000, what: 'B’s sends' },
    );
    const statusesA: SendStatus[] = await waitFor(
      () =>
        settled(
          clientA,
          answersA.map((answer) => answer.body.id),
        ),
      {
        timeoutMs: 30_000,
        what: 'A’s sends',
      },
    );
    assert.deepEqual(
      statusesA.map((one) => one.status),
      answersA.map(() => 'sent'),
    );
    assert.deepEqual(
      statusesB.map((one) => one.status),
      answersB.map(() => 'sent'),
    );
    assert.ok(
      statusesA.every((one) => one.attempts === 1),
      `waiting for the limit costs no attempt: ${statusesA.map((one) => one.attempts).join(',')}`,
    );

    const acceptedA = mock
      .messages({ account: senderA.email })
      .map((mail) => mail.acceptedAt)
      .sort((a, b) => a - b);
    const acceptedB = mock
      .messages({ account: senderB.email })
      .map((mail) => mail.acceptedAt)
      .sort((a, b) => a - b);
    assert.equal(acceptedA.length, A_SENDS, 'each of A’s sends delivered once');
    assert.equal(acceptedB.length, B_SENDS, 'each of B’s sends delivered once');
    assert.deepEqual(mock.counts()[senderA.email], { accepted: A_SENDS, rateLimited: 0, tempFailed: 0, permFailed: 0, dropped: 0 });

    // A token bucket lets through at most burst + rate × T in any window of T. What is measured is when the
    // provider accepted each mail, some time after its token was taken: a delay that varies by up to J widens
    // the window the tokens were taken in to T + J. J is allowed half a second, for a loaded machine.
    const acceptedWithin = (windowMs: number) => Math.floor(BURST + (RATE_PER_SECOND * (windowMs + JITTER_MS)) / 1000);
    const [most, at] = busiestWindow(acceptedA, 1000);
    const spanMs = acceptedA[A_SENDS - 1] - acceptedA[0];
    console.log(`sender A: busiest 1 s window held ${most} (at +${at - acceptedA[0]} ms); ${A_SENDS} sends over ${spanMs} ms`);
    assert.ok(most <= acceptedWithin(1000), `${most} of A's mails were accepted within one second`);
    // The tokens after the burst alone take (30 − 5) / 5 = 5 s.
    assert.ok(spanMs >= ((A_SENDS - BURST) / RATE_PER_SECOND) * 1000 - 300, `A's sends went out over only ${spanMs} ms`);
    const [mostIn3s] = busiestWindow(acceptedA, 3000);
    assert.ok(mostIn3s <= acceptedWithin(3000), `${mostIn3s} of A's mails within three seconds`);
    // B has a bucket of its own: all its mails went before A's 15th.
    assert.ok(
      acceptedB[B_SENDS - 1] < acceptedA[14],
      `B's last at +${acceptedB[B_SENDS - 1] - acceptedA[0]} ms, A's 15th at +${acceptedA[14] - acceptedA[0]} ms`,
    );
  });
});

describe('a sender paced to a provider with the same limit', () => {
  const queuePrefix = testQueuePrefix();
  const SENDS = 40;
  // The provider's burst absorbs what delays messages between the worker's token and the provider's
  // count: up to 1.8 s of them at this rate (a loaded machine bunched 6 once with a burst of 5).
  // A worker that did not pace, or paced at twice the rate, still has a quarter or more refused.
  const PROVIDER_BURST = 10;
  let db: Database;
  let mock: MockSmtp;
  let api: SendApiProcess;
  let worker: AppProcess | undefined;

  before(async () => {
    db = testDatabase();
    // The provider allows the rate the worker is told, and takes a second to answer, as real ones do.
    mock = await startMockSmtp({ port: 0, latencyMs: 1000, ratePerSecond: RATE_PER_SECOND, burst: PROVIDER_BURST });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    // The worker's default burst (1): the provider's unused burst absorbs what delays each message on its way.
    worker = await startDeliveryWorkerProcess(
      deliveryWorkerEnv(queuePrefix, mock.port, { SENDER_RATE_PER_SECOND: String(RATE_PER_SECOND), SENDER_BURST: '1' }),
    );
  });

  after(async () => {
    const exit = await worker?.stop('SIGTERM');
    await api?.close();
    await mock?.close();
    await db?.close();
    assert.equal(exit, 0, worker?.output());
  });

  test(`${SENDS} sends queued at once reach the provider at its pace, none refused as over its limit`, async () => {
    const sender = await createTestUser(db, 'steady');
    const client = new SendClient(api.url, accessTokenFor(sender));
    const run = randomUUID().slice(0, 8);
    const answers = await Promise.all(Array.from({ length: SENDS }, (_, index) => client.send({ to: [`s${index}.${run}@paced.test`], text: 'paced' })));
    for (const answer of answers) assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const statuses = await waitFor(
      async () => {
        const all = await Promise.all(answers.map((answer) => client.current(answer.body.id)));
        return all.every((one) => one.status === 'sent' || one.status === 'failed') && all;
      },
      { timeoutMs: 60_000, what: 'the paced sends' },
    );
    assert.deepEqual(
      statuses.map((one) => one.status),
      answers.map(() => 'sent'),
    );
    assert.deepEqual(mock.counts()[sender.email], { accepted: SENDS, rateLimited: 0, tempFailed: 0, permFailed: 0, dropped: 0 });
    // The provider's own limiter is the judge of the pace: the test asserts no timings of its own.
    assert.ok(
      statuses.every((one) => one.attempts === 1),
      `each went at its first attempt: ${statuses.map((one) => one.attempts).join(',')}`,
    );
  });
});
