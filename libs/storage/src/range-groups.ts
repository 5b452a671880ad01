import type { ByteRange } from './blob-store';

/** Ranges whose gap is at most this many bytes are fetched with one request: a round trip costs more than the bytes. */
const MERGE_GAP = 256 * 1024;

/** A span to fetch, and the ranges asked for that lie in it, by their index in the request. */
export interface RangeGroup {
  span: ByteRange;
  members: number[];
}

/** The ranges, empty ones aside, grouped into as few spans as the gap allows, in order of their start. */
export function groupRanges(ranges: ByteRange[]): RangeGroup[] {
  const order = ranges
    .map((range, index) => ({ range, index }))
    .filter(({ range }) => range.end > range.start)
    .sort((a, b) => a.range.start - b.range.start);
  const groups: RangeGroup[] = [];
  for (const { range, index } of order) {
    const last = groups.at(-1);
    if (last && range.start - last.span.end <= MERGE_GAP) {
      last.span.end = Math.max(last.span.end, range.end);
      last.members.push(index);
    } else {
      groups.push({ span: { ...range }, members: [index] });
    }
  }
  return groups;
}
