import { ImapCommandError } from './tokens';

/** One range of a sequence set as the client wrote it; `*` is the largest number in use. */
export interface SequenceRange {
  from: number | '*';
  to: number | '*';
}

/** `1:*`, `2,4:7`, `*`: message sequence numbers or UIDs (RFC 3501 sequence-set). */
export type SequenceSet = SequenceRange[];

/** `$` (RFC 5182 SEARCHRES): the messages the last SEARCH RETURN (SAVE) saved, in a command taking numbers or UIDs alike. */
export const SAVED_RESULT = '$';

/** What a command over messages names them by: a sequence set, or the saved search result. */
export type MessageSet = SequenceSet | typeof SAVED_RESULT;

/** A command's sequence set, or `$` alone (RFC 5182 seq-last-command: never within a set). */
export function parseMessageSet(text: string): MessageSet {
  return text === SAVED_RESULT ? SAVED_RESULT : parseSequenceSet(text);
}

const NZ_NUMBER = /^[1-9]\d{0,9}$/;
const MAX = 0xffffffff;

export function parseSequenceSet(text: string): SequenceSet {
  if (text === '') throw new ImapCommandError('expected a sequence set');
  return text.split(',').map((range) => {
    const bounds = range.split(':');
    if (bounds.length > 2) throw new ImapCommandError(`malformed sequence set: ${range}`);
    const [from, to] = bounds.map((bound) => parseBound(bound));
    return { from, to: to ?? from };
  });
}

function parseBound(bound: string): number | '*' {
  if (bound === '*') return '*';
  if (!NZ_NUMBER.test(bound) || Number(bound) > MAX) throw new ImapCommandError(`malformed sequence set: ${bound} is not a number from 1 to ${MAX} or *`);
  return Number(bound);
}

/**
 * The set as ascending, disjoint, inclusive [first, last] ranges, `*` read as `largest` (RFC 3501: `4:2` is `2:4`,
 * and with no messages `*` still names one, which then matches nothing). Bounded by the ranges the client wrote,
 * never by the numbers they span.
 */
export function sequenceRanges(set: SequenceSet, largest: number): [number, number][] {
  const resolve = (bound: number | '*') => (bound === '*' ? largest : bound);
  const ranges = set
    .map(({ from, to }): [number, number] => [Math.min(resolve(from), resolve(to)), Math.max(resolve(from), resolve(to))])
    .filter(([first]) => first >= 1)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** Each number of the set, ascending, once, up to `largest`: what a command over the mailbox's messages walks. */
export function* sequenceNumbers(set: SequenceSet, largest: number): Generator<number> {
  for (const [first, last] of sequenceRanges(set, largest)) {
    for (let number = first; number <= Math.min(last, largest); number++) yield number;
  }
}

/** Ascending numbers as a short sequence set, `1:3,7,9:10` (VANISHED, COPYUID); empty for none. */
export function formatSequenceSet(numbers: Iterable<number>): string {
  const ranges: string[] = [];
  let first: number | undefined;
  let last = 0;
  for (const number of numbers) {
    if (first !== undefined && number === last + 1) {
      last = number;
      continue;
    }
    if (first !== undefined) ranges.push(first === last ? `${first}` : `${first}:${last}`);
    first = last = number;
  }
  if (first !== undefined) ranges.push(first === last ? `${first}` : `${first}:${last}`);
  return ranges.join(',');
}

/** Ascending, disjoint, inclusive [first, last] ranges (VANISHED's UIDs): the parts of them in the set, `*` standing for any number past the others. */
export function rangesInSet(ranges: readonly (readonly [number, number])[], set: SequenceSet): [number, number][] {
  const wanted = sequenceRanges(set, MAX);
  const inSet: [number, number][] = [];
  let index = 0;
  for (const [first, last] of ranges) {
    while (index < wanted.length && wanted[index][1] < first) index++;
    for (let next = index; next < wanted.length && wanted[next][0] <= last; next++) {
      inSet.push([Math.max(first, wanted[next][0]), Math.min(last, wanted[next][1])]);
    }
  }
  return inSet;
}

/** Ascending, disjoint, inclusive ranges as a sequence set, `1:3,7`; empty for none. */
export function formatRanges(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([first, last]) => (first === last ? `${first}` : `${first}:${last}`)).join(',');
}
