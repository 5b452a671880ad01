import { senderEmails } from '../data/bench-accounts';
import { PROVIDER_DEFAULTS, startMockProviders } from '../harness/bench-apps';
import type { BenchFixtures } from '../harness/bench-fixtures';
import { runCrashCase, type CrashCaseResult } from '../harness/crash-run';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import { leftoverSendsNote, SendQueue, takeIdleQueue } from '../harness/send-queue';
import { count } from '../report/format';
import type { ProcedureOptions, ProcedureScenario } from './scenario';

const SENDERS = 20;
const SENDS_PER_SENDER = 25;
/** Mid-way: with a 4 s provider, most of what the worker has taken is then waiting for the provider's answer. */
const KILL_AFTER_SHARE = 0.5;
/** The provider's rate; the burst is the worker's default. */
const SENDER_LIMIT = { SENDER_RATE_PER_SECOND: '5' };
const TIMEOUT_SECONDS = 180;

export const deliveryCrashScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'delivery-crash',
  title: 'A delivery worker SIGKILLed mid-way through 500 sends and started again: how long its sends stay `sending`, and the duplicates at the provider',
  summary:
    'starts its own mock providers (127.0.0.1:2925, control :3925) and delivery workers on the send API queue; ' +
    `${SENDERS} senders × ${SENDS_PER_SENDER}, the worker killed once the provider accepted ${KILL_AFTER_SHARE * 100}%, ` +
    'once without asking the provider and once with SMTP_RECEIPTS_URL; about 2 minutes',
  run: runDeliveryCrash,
};

async function runDeliveryCrash(fixtures: BenchFixtures, options: ProcedureOptions): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const queue = SendQueue.ofProcess((await fixtures.sendApi.health()).pid);
  try {
    const notes = await takeIdleQueue(queue);
    const emails = senderEmails(SENDERS);
    const [tokens, userIds] = await Promise.all([fixtures.tokensOf(emails), fixtures.userIdsOf(emails)]);
    const senders = emails.map((email, index) => ({ email, token: tokens[index], userId: userIds[index] }));
    const leftovers = await leftoverSendsNote(fixtures.sql, queue.prefix);
    if (leftovers) notes.push(leftovers);
    const mock = await startMockProviders();
    const results: CrashCaseResult[] = [];
    try {
      const provider = await mock.config();
      const workerEnv: Record<string, string> = { ...SENDER_LIMIT, ...options.workerEnv, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(mock.smtpPort) };
      notes.push(
        `provider: mock SMTP at ${provider.latencyMs} ms latency, ${provider.ratePerSecond} mails/s per sender; ` +
          `worker: ${options.workerBuild ? `the build in ${options.workerBuild}` : 'dist/'} on ${queue.name}, DELIVERY_LOCK_MS ${workerEnv.DELIVERY_LOCK_MS ?? 'default'}; each case queues every send, ` +
          'SIGKILLs the worker once the provider accepted half of them and starts a new one with the same settings at once. ' +
          'in flight: `sending` at the kill; stalled: kill → the stalled check put the job back (Redis time); sending for: kill → `sent`; ' +
          'duplicates: messages the provider accepted beyond one per send',
      );
      const cases = [
        { label: 'provider not asked', workerEnv },
        { label: 'provider asked (SMTP_RECEIPTS_URL)', workerEnv: { ...workerEnv, SMTP_RECEIPTS_URL: mock.control.origin } },
      ];
      for (const crashCase of cases) {
        console.log(`   ${crashCase.label}: ${SENDERS * SENDS_PER_SENDER} sends ...`);
        const result = await runCrashCase(
          { sendApi: fixtures.sendApi, sql: fixtures.sql, queue, mock },
          { ...crashCase, senders, sendsPerSender: SENDS_PER_SENDER, killAfterShare: KILL_AFTER_SHARE, workerBuild: options.workerBuild },
          TIMEOUT_SECONDS,
        );
        results.push(result);
        notes.push(caseNote(result));
      }
    } finally {
      await mock.stop();
    }
    return {
      scenario: deliveryCrashScenario.name,
      title: deliveryCrashScenario.title,
      startedAt,
      notes,
      table: resultTable(results),
      data: { provider: PROVIDER_DEFAULTS, workerEnvOverrides: options.workerEnv, killAfterShare: KILL_AFTER_SHARE, cases: results },
    };
  } finally {
    await queue.close();
  }
}

function caseNote(result: CrashCaseResult): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const outcome = result.timedOut ? `NOT all sent within ${TIMEOUT_SECONDS} s` : 'all sent';
  return (
    `${result.label}: ${outcome}; ${result.inFlightAtKill} in flight at the kill, ${result.foundStalled} put back by the stalled check ` +
    `${seconds(result.killToStalledMs.first)}–${seconds(result.killToStalledMs.last)} s after it; they stayed sending ` +
    `p50 ${seconds(result.killToSentMs.p50)} s, max ${seconds(result.killToSentMs.max)} s; ` +
    `${result.duplicates} duplicate(s) of ${result.sends} sends (${((100 * result.duplicates) / result.sends).toFixed(1)}%), ${result.lost} lost`
  );
}

function resultTable(results: CrashCaseResult[]): ProcedureOutcome['table'] {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  return {
    header: [
      'case',
      'sends',
      'in flight at kill',
      'stalled',
      'stalled first s',
      'stalled last s',
      'sending p50 s',
      'sending max s',
      'accepted',
      'duplicates',
      'lost',
    ],
    rows: results.map((result) => [
      result.label,
      count(result.sends),
      count(result.inFlightAtKill),
      count(result.foundStalled),
      seconds(result.killToStalledMs.first),
      seconds(result.killToStalledMs.last),
      seconds(result.killToSentMs.p50),
      seconds(result.killToSentMs.max),
      count(result.accepted),
      count(result.duplicates),
      count(result.lost),
    ]),
  };
}
