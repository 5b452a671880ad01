import type { BatchLimits } from '@letterbox/queue';

/**
 * Group commit of sends: while one group's statement (or Redis call) runs, the sends
 * arriving meanwhile gather and go together in the next, so under load one round trip
 * and one WAL flush serve many requests, and a send alone waits at most `maxWaitMs` more.
 */
export function sendGroupCommit(maxSize: number): BatchLimits {
  return { maxSize, maxWaitMs: 1, maxInFlight: 2 };
}

export const SEND_GROUP_COMMIT = sendGroupCommit(256);
