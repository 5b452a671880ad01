import { randomUUID } from 'node:crypto';
import { newMailNotification, openFcm, PushSender } from '@letterbox/push';
import { startMockProviders, type MockProviders } from '../harness/bench-apps';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import { sendOneByOne } from '../naive/naive-push';
import { count } from '../report/format';
import type { ProcedureScenario } from './scenario';

const DEVICES = 1000;
/** FCM's HTTP v1 API takes tens of milliseconds per message. */
const FCM_LATENCY_MS = 50;
/** The notify worker's default FCM_MAX_CONNECTIONS. */
const MAX_CONNECTIONS = 500;
/** The batched way takes a fraction of a second, so it runs a few times and its median counts. */
const BATCHED_ROUNDS = 3;
const TARGET_RATIO = 20;

interface WayResult {
  way: string;
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
  delivered: number;
  /** Messages the mock accepted for this way's tokens, each token exactly once if all is well. */
  acceptedByMock: number;
}

export const notifyScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'notify',
  title: `One new-mail notification to ${count(DEVICES)} devices through firebase-admin, mock FCM at ${FCM_LATENCY_MS} ms: batched and parallel against one by one`,
  summary:
    `starts its own mock providers (FCM on :3925, ${FCM_LATENCY_MS} ms latency); PushSender (multicasts of 500, all at once, ${MAX_CONNECTIONS} connections) ` +
    `${BATCHED_ROUNDS} times, then bench/naive/naive-push.ts (messaging.send per token, in turn) once; about a minute`,
  run: runNotify,
};

async function runNotify(): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const mock = await startMockProviders({ MOCK_FCM_LATENCY_MS: String(FCM_LATENCY_MS) });
  const fcm = openFcm({ kind: 'mock', url: mock.control, projectId: 'letterbox-bench', maxConnections: MAX_CONNECTIONS });
  try {
    const notification = newMailNotification({ userId: 1, mailId: 1, from: 'Alice <alice@letterbox.test>', subject: 'Benchmark' });
    const sender = new PushSender(fcm.messaging);
    // Firebase's access token and the first connections, before anything is timed.
    await sender.send(tokensFor('warm', 20), notification);
    await sendOneByOne(fcm.messaging, tokensFor('warm', 2), notification);

    const batched: WayResult[] = [];
    for (let round = 1; round <= BATCHED_ROUNDS; round++) {
      const tokens = tokensFor(`batched${round}`, DEVICES);
      batched.push(await measure(`PushSender, round ${round}`, tokens, mock, async () => (await sender.send(tokens, notification)).delivered));
      console.log(`   ${batched.at(-1)?.way}: ${batched.at(-1)?.seconds.toFixed(3)} s`);
    }
    const naiveTokens = tokensFor('naive', DEVICES);
    console.log(`   one by one: ${count(DEVICES)} sends in turn, about ${Math.round((DEVICES * FCM_LATENCY_MS) / 1000)} s ...`);
    const naive = await measure(
      'messaging.send one by one',
      naiveTokens,
      mock,
      async () => (await sendOneByOne(fcm.messaging, naiveTokens, notification)).delivered,
    );

    const median = [...batched].sort((a, b) => a.seconds - b.seconds)[Math.floor(BATCHED_ROUNDS / 2)];
    const ratio = naive.seconds / median.seconds;
    const verdict = ratio >= TARGET_RATIO ? 'met' : 'MISSED';
    const allDelivered = [...batched, naive].every((result) => result.delivered === DEVICES && result.acceptedByMock === DEVICES);
    return {
      scenario: notifyScenario.name,
      title: notifyScenario.title,
      startedAt,
      notes: [
        `batched (median of ${BATCHED_ROUNDS}): ${median.seconds.toFixed(3)} s, ${count(median.tokensPerSecond)} tokens/s; one by one: ${naive.seconds.toFixed(1)} s, ` +
          `${count(naive.tokensPerSecond)} tokens/s; ratio ×${ratio.toFixed(0)} (target ≥ ×${TARGET_RATIO}: ${verdict})`,
        `the best possible batched time is 2 × ${FCM_LATENCY_MS} ms: ${MAX_CONNECTIONS} connections carry ${count(DEVICES)} requests in two waves; one by one cannot beat ${count(DEVICES)} × ${FCM_LATENCY_MS} ms`,
        allDelivered ? `every token got exactly one message, as the mock counted` : 'WARNING: not every token got exactly one message; see the table',
      ],
      table: {
        header: ['way', 'tokens', 'wall s', 'tokens/s', 'delivered', 'mock accepted', 'ratio to one by one'],
        rows: [...batched, naive].map((result) => [
          result.way,
          count(result.tokens),
          result.seconds.toFixed(3),
          count(result.tokensPerSecond),
          count(result.delivered),
          count(result.acceptedByMock),
          `×${(naive.seconds / result.seconds).toFixed(1)}`,
        ]),
      },
      data: { devices: DEVICES, fcmLatencyMs: FCM_LATENCY_MS, maxConnections: MAX_CONNECTIONS, targetRatio: TARGET_RATIO, ratio, batched, naive },
    };
  } finally {
    await fcm.close();
    await mock.stop();
  }
}

const tokensFor = (label: string, devices: number) => {
  const run = randomUUID().slice(0, 8);
  return Array.from({ length: devices }, (_, index) => `bench-${label}-${run}-${index}`);
};

async function measure(way: string, tokens: string[], mock: MockProviders, send: () => Promise<number>): Promise<WayResult> {
  const started = performance.now();
  const delivered = await send();
  const seconds = (performance.now() - started) / 1000;
  return { way, tokens: tokens.length, seconds, tokensPerSecond: tokens.length / seconds, delivered, acceptedByMock: await acceptedFor(mock, tokens) };
}

/** How many of these tokens the mock accepted exactly one message for. */
async function acceptedFor(mock: MockProviders, tokens: string[]): Promise<number> {
  const response = await fetch(new URL('/fcm/messages?limit=0', mock.control), { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET /fcm/messages of the mock providers answered ${response.status}`);
  const counts = ((await response.json()) as { tokens: Record<string, { accepted: number }> }).tokens;
  return tokens.filter((token) => counts[token]?.accepted === 1).length;
}
