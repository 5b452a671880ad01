import { setTimeout as sleep } from 'node:timers/promises';
import { IMAP_BENCH_PORT } from '../harness/imap-app';
import { ImapWireClient } from '../harness/imap-wire-client';
import { processTree, residentBytes } from '../harness/process-tree';

/** Sessions being opened at once: each waits for its sign-in's password hash, which the app runs one at a time. */
const OPENING_AT_ONCE = 50;
/** Sessions opened and closed before the first RSS reading, so the code they run is compiled and its pools open. */
const WARM_UP_SESSIONS = 20;
/**
 * How long RSS is watched for each reading, the process idle: V8 collects an idle process's garbage within
 * seconds (its memory reducer), so the lowest RSS of the window is the live memory, not the garbage of the
 * sessions' sign-ins. A single reading right after opening the sessions gave -12 KB a session.
 */
const SETTLE_MS = 12_000;
const SETTLE_SAMPLE_MS = 250;

/** An IMAP session signed in, its INBOX selected and idling, with the EXISTS counts it has been told. */
export interface IdlingSession {
  client: ImapWireClient;
  /** The latest `* n EXISTS`, and when each count first came (performance.now()). */
  exists: number;
  existsAt: Map<number, number>;
}

export interface IdleSessionsFigures {
  sessions: number;
  /** From the first connection to the last session idling. */
  openSeconds: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  bytesPerSession: number;
}

export async function openIdlingSession(email: string, password: string): Promise<IdlingSession> {
  const client = await ImapWireClient.connect(IMAP_BENCH_PORT);
  const session: IdlingSession = { client, exists: 0, existsAt: new Map() };
  client.onUntagged = (line) => {
    const exists = /^\* (\d+) EXISTS$/i.exec(line);
    if (!exists) return;
    session.exists = Number(exists[1]);
    if (!session.existsAt.has(session.exists)) session.existsAt.set(session.exists, performance.now());
  };
  await client.login(email, password);
  await client.command('SELECT INBOX');
  await client.idle();
  return session;
}

/** Opens `count` idling sessions of one user, OPENING_AT_ONCE at a time; all of them or a failure. */
export async function openIdlingSessions(count: number, email: string, password: string): Promise<IdlingSession[]> {
  const sessions: IdlingSession[] = [];
  try {
    for (let start = 0; start < count; start += OPENING_AT_ONCE) {
      const batch = Array.from({ length: Math.min(OPENING_AT_ONCE, count - start) }, () => openIdlingSession(email, password));
      const settled = await Promise.allSettled(batch);
      for (const outcome of settled) if (outcome.status === 'fulfilled') sessions.push(outcome.value);
      const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) throw new Error(`opening idle session ${sessions.length + 1} of ${count}: ${(failed.reason as Error).message}`);
    }
    return sessions;
  } catch (error) {
    closeSessions(sessions);
    throw error;
  }
}

export function closeSessions(sessions: IdlingSession[]): void {
  for (const session of sessions) session.client.close();
}

/**
 * a) The IMAP process's RSS with no session (after a warm-up) and with `count` sessions idling in their
 * INBOX: what one idle session costs. The sessions are handed back open, for the next measure.
 */
export async function measureIdleSessions(
  imapPid: number,
  count: number,
  email: string,
  password: string,
): Promise<{ figures: IdleSessionsFigures; sessions: IdlingSession[] }> {
  closeSessions(await openIdlingSessions(WARM_UP_SESSIONS, email, password));
  const rssBeforeBytes = await settledRss(imapPid);
  const started = performance.now();
  const sessions = await openIdlingSessions(count, email, password);
  const openSeconds = (performance.now() - started) / 1000;
  const rssAfterBytes = await settledRss(imapPid);
  return {
    figures: { sessions: count, openSeconds, rssBeforeBytes, rssAfterBytes, bytesPerSession: (rssAfterBytes - rssBeforeBytes) / count },
    sessions,
  };
}

/** The lowest RSS of the process over SETTLE_MS. */
async function settledRss(pid: number): Promise<number> {
  let lowest = treeRss(pid);
  for (let waited = 0; waited < SETTLE_MS; waited += SETTLE_SAMPLE_MS) {
    await sleep(SETTLE_SAMPLE_MS);
    lowest = Math.min(lowest, treeRss(pid));
  }
  return lowest;
}

export function treeRss(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + residentBytes(member), 0);
}
