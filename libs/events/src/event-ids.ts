const STREAM_ID = /^(\d{1,20})-(\d{1,20})$/;
const MAX_PART = 2n ** 64n - 1n;

/** Whether `value` is a Redis stream id (`<ms>-<seq>`, each part a 64-bit unsigned number), as event ids are. */
export function isEventId(value: string): boolean {
  const match = STREAM_ID.exec(value);
  return match !== null && BigInt(match[1]) <= MAX_PART && BigInt(match[2]) <= MAX_PART;
}

/** Negative when `a` came before `b`, as Redis orders stream ids. */
export function compareEventIds(a: string, b: string): number {
  const [aTime, aSequence] = parts(a);
  const [bTime, bSequence] = parts(b);
  if (aTime !== bTime) return aTime < bTime ? -1 : 1;
  if (aSequence !== bSequence) return aSequence < bSequence ? -1 : 1;
  return 0;
}

function parts(id: string): [bigint, bigint] {
  const dash = id.indexOf('-');
  return [BigInt(id.slice(0, dash)), BigInt(id.slice(dash + 1))];
}
