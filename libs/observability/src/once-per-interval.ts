/**
 * Whether something repeating (a connection error on every reconnect attempt) may be told again now: once,
 * then at most once per interval, so an outage is a few lines, not thousands.
 */
export function oncePerInterval(intervalMs: number): () => boolean {
  let last = -Infinity;
  return () => {
    const now = Date.now();
    if (now - last < intervalMs) return false;
    last = now;
    return true;
  };
}
