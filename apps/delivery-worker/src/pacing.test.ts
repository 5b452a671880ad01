import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import { createTestUser, testDatabase, testQueuePrefix, waitFor } from '@letterbox/testing';
import { accessTokenFor, SendClient, startSendApiServer, type RunningSendApi } from '../../send-api/src/testing/send-api-server';
import { startWorkerProcess, testWorkerEnv, type WorkerProcess } from './testing/delivery-workers';

/** The provider's limit, told to the worker as it is: no margin of the worker's own. */
const RATE_PER_SECOND = 5;
const BURST = 5;
const SENDS = 40;
const INTERVAL_MS = 1000 / RATE_PER_SECOND;
const QUEUEING_CONCURRENCY = 5;

describe('a sender paced to the provider’s own limit', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: WorkerProcess;

  before(async () => {
    db = testDatabase();
    // A provider that takes a second to answer and counts each mail at its end of DATA against a bucket of 5/s, burst 5.
    mock = await startMockSmtp({ port: 0, latencyMs: 1000, ratePerSecond: RATE_PER_SECOND, burst: BURST });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    // A process of its own, as in production; the default lock, as a takeover on a loaded machine would send a mail twice.
    const env = testWorkerEnv(queuePrefix, mock.port, { SENDER_RATE_PER_SECOND: String(RATE_PER_SECOND), SENDER_BURST: String(BURST), DELIVERY_LOCK_MS: '10000' });
    worker = await startWorkerProcess(env);
  });

  after(async () => {
    const exit = await worker?.stop('SIGTERM');
    await api?.close();
    await mock?.close();
    await db?.close();
    assert.equal(exit, 0, worker?.output());
  });

  test(`${SENDS} sends, queued faster than the limit, reach the provider ${INTERVAL_MS} ms apart, none refused with 451`, async () => {
    const sender = await createTestUser(db, 'paced');
    const client = new SendClient(api.url, accessTokenFor(sender));
    const run = randomUUID().slice(0, 8);
    // A few at a time: all at once, a loaded machine's send API times some out. Queued faster than 5/s all the same, so a backlog builds.
    const answers = [];
    for (let index = 0; index < SENDS; index += QUEUEING_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(QUEUEING_CONCURRENCY, SENDS - index) }, (_, offset) => index + offset);
      answers.push(...(await Promise.all(batch.map((one) => client.send({ to: [`r${one}.${run}@paced.test`], subject: `paced ${one}`, text: 'paced' })))));
    }
    for (const answer of answers) assert.equal(answer.status, 202, JSON.stringify(answer.body));

    const ids = answers.map((answer) => BigInt(answer.body.id));
    const statuses = await waitFor(
      async () => {
        const all = await db.prisma.outboundSend.findMany({ where: { id: { in: ids } }, select: { status: true, attempts: true } });
        return all.length === SENDS && all.every((one) => one.status === 'sent' || one.status === 'failed') && all;
      },
      { timeoutMs: 60_000, what: 'every paced send settled' },
    );
    assert.deepEqual(statuses.map((one) => one.status), ids.map(() => 'sent'));
    assert.deepEqual(mock.counts()[sender.email], { accepted: SENDS, rateLimited: 0, tempFailed: 0, permFailed: 0, dropped: 0 });
    assert.ok(statuses.every((one) => one.attempts === 1), `every send went at its first attempt: ${statuses.map((one) => one.attempts).join(',')}`);

    // The provider answers each a fixed latency after it counted it, so its answers are spaced as its counts were.
    const accepted = mock.messages({ account: sender.email }).map((mail) => mail.acceptedAt).sort((a, b) => a - b);
    const gaps = accepted.slice(1).map((at, index) => at - accepted[index]);
    const medianGap = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
    // Spaced, not in bursts: bursts as large as the provider's bucket would leave the median gap short.
    assert.ok(medianGap >= INTERVAL_MS * 0.75, `the mails reached the provider a median ${medianGap} ms apart: ${gaps.join(', ')}`);
  });
});
