import type { JobRunOptions } from '@letterbox/queue';

/**
 * How the delivery worker holds its jobs, from one duration (DELIVERY_LOCK_MS). BullMQ
 * renews the lock of a running job every quarter to half of it, so an SMTP conversation
 * may last far longer than the lock: only a worker that stopped renewing (killed, or its
 * event loop or Redis stuck for half the lock) loses it. A stalled check every half lock
 * then finds a dead worker's jobs and queues them again: from half a lock after the
 * worker died (its lock runs out) to a lock and a half (the check that finds it comes
 * next), or two locks when BullMQ's check skips a turn, as it may: a check arriving a
 * moment before the previous one's guard key expires does nothing.
 */
export function deliveryLockOptions(lockMs: number): Pick<JobRunOptions, 'lockDuration' | 'lockRenewTime' | 'stalledInterval' | 'maxStalledCount'> {
  // Whole milliseconds: the stalled check hands its interval to Redis as a key's PX expiry.
  const halfLockMs = Math.floor(lockMs / 2);
  return {
    lockDuration: lockMs,
    // BullMQ's own default, stated because the bounds above rest on it.
    lockRenewTime: halfLockMs,
    stalledInterval: halfLockMs,
    // A delivery survives this many worker crashes before it is given up (each crash may
    // send the message in flight twice); BullMQ's default gives up after the first.
    maxStalledCount: 5,
  };
}
