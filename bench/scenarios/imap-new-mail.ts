import { setTimeout as sleep } from 'node:timers/promises';
import { poll } from '@letterbox/testing';
import { inboundPath, newsletterMessage } from '../data/inbound-messages';
import { INGEST_BENCH_TOKEN, postOnce, type IngestStack } from '../harness/ingest-stack';
import { spreadOf } from '../harness/load-result';
import type { IdlingSession } from './imap-idle-sessions';

const ROUNDS = 5;
const PAUSE_BETWEEN_ROUNDS_MS = 1000;
/** How long the sessions are waited for; those not told by then are counted as not told. */
export const NEW_MAIL_TIMEOUT_MS = 30_000;
const HEADERS = { 'content-type': 'message/rfc822', authorization: `Bearer ${INGEST_BENCH_TOKEN}` };

export interface NewMailRound {
  round: number;
  /** From the POST to the intake: its 202, the mail's row (its transaction's start), and the EXISTS of every idling session. */
  ackMs: number;
  storedMs: number;
  /** Sessions idling, and those told within NEW_MAIL_TIMEOUT_MS; the times are those of the told ones. */
  sessions: number;
  told: number;
  existsMs?: { p50: number; p95: number; max: number };
  /** From the mail's row to the last session's EXISTS: what IMAP adds. */
  storedToAllToldMs?: number;
}

/**
 * d) One new mail at a time posted to the ingest app (its spool, queue and worker store it, as any incoming
 * mail), to the user whose sessions idle in INBOX: when each session gets its `* n EXISTS`.
 */
export async function measureNewMailReach(stack: IngestStack, sessions: IdlingSession[], recipient: { id: number; email: string }): Promise<NewMailRound[]> {
  await stack.startMockProviders();
  await stack.startIngest({}, [], 'ingest-unchecked');
  await stack.startIngestWorker({});
  const rounds: NewMailRound[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    if (round > 1) await sleep(PAUSE_BETWEEN_ROUNDS_MS);
    const expected = Math.max(...sessions.map((session) => session.exists)) + 1;
    const startEpoch = Date.now();
    const start = performance.now();
    const body = newsletterMessage(recipient.email, `imap-bench-${startEpoch}-${round}@news.example.org`, round);
    const answer = await postOnce(new URL(inboundPath(recipient.email), stack.baseOf('ingest-unchecked')), HEADERS, body, NEW_MAIL_TIMEOUT_MS);
    if (answer.status !== 202) throw new Error(`the ingest app answered ${answer.status}${answer.error ? ` (${answer.error})` : ''} to round ${round}'s mail`);
    await poll(async () => (sessions.every((session) => session.exists >= expected) ? true : undefined), { timeoutMs: NEW_MAIL_TIMEOUT_MS, intervalMs: 5 });
    const arrivals = sessions.flatMap((session) => {
      const at = session.existsAt.get(expected);
      return at === undefined ? [] : [at - start];
    });
    const { rows } = await stack.sql.query<{ at: string }>(
      'SELECT extract(epoch FROM created_at) * 1000 AS at FROM mails WHERE user_id = $1 ORDER BY id DESC LIMIT 1',
      [recipient.id],
    );
    const storedMs = rows.length > 0 ? Number(rows[0].at) - startEpoch : Number.NaN;
    const spread = spreadOf(arrivals);
    const told = arrivals.length;
    rounds.push({
      round,
      ackMs: answer.ms,
      storedMs,
      sessions: sessions.length,
      told,
      ...(told > 0 ? { existsMs: { p50: spread.p50, p95: spread.p95, max: spread.max }, storedToAllToldMs: spread.max - storedMs } : {}),
    });
    // A server that told nobody in time will not tell the next mail either: one timeout says it.
    if (told === 0) break;
  }
  return rounds;
}
