/** Where the events live in Redis, under a namespace so deployments (and test runs) sharing one Redis stay apart. */
export function eventKeys(prefix: string) {
  return {
    /** A user's recent events, kept for clients resuming with Last-Event-ID. */
    history: (userId: number) => `${prefix}:events:user:${userId}`,
    /** Every user's events as they happen: each API process subscribes once and fans out in process. */
    live: `${prefix}:events:live`,
  };
}
