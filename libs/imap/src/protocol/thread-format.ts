/**
 * A thread as RFC 5256's thread-list, its first message the parent of all the others: `(1)`, `(1 2)` (an only child
 * follows its parent), `(1 (2)(3))` (siblings are nested lists, at least two: thread-nested = 2*thread-list).
 */
export function threadList(numbers: readonly number[]): string {
  if (numbers.length <= 2) return `(${numbers.join(' ')})`;
  return `(${numbers[0]} ${numbers
    .slice(1)
    .map((number) => `(${number})`)
    .join('')})`;
}

/**
 * The threads' lists as `* THREAD` carries them, the first after a space: `numbers` holds the threads' messages one
 * thread after another (undefined for a message the session does not know), `sizes` how many each thread has.
 */
export function* threadLists(numbers: readonly (number | undefined)[], sizes: readonly number[]): Generator<string> {
  let at = 0;
  let separator = ' ';
  for (const size of sizes) {
    const thread = numbers.slice(at, at + size).filter((number): number is number => number !== undefined);
    at += size;
    if (thread.length === 0) continue;
    yield `${separator}${threadList(thread)}`;
    separator = '';
  }
}
