import { SAVED_RESULT, sequenceRanges, type MessageSet, type SequenceSet } from '../protocol/sequence-set';

/** What the session knows of a mailbox when it selects it. */
export interface SelectedMailboxInit {
  mailboxId: number;
  /** As the client named it (INBOX for the inbox). */
  name: string;
  readOnly: boolean;
  uidValidity: number;
  /** The MODSEQ the session has reported the mailbox up to. */
  highestModseq: number;
  /** Every UID of the mailbox, ascending, as runs [first, last] of consecutive UIDs. */
  uidRuns: readonly (readonly [number, number])[];
}

/**
 * The mailbox a session has selected, as the client was last told of it: message sequence number n is the n-th
 * UID of the ascending list (RFC 3501 2.3.1.2). The numbers change only when the session reports the change
 * (EXPUNGE/VANISHED, EXISTS), so the list is the session's own, kept as 4 bytes a UID.
 *
 * It also holds the search result SEARCH RETURN (SAVE) saved (RFC 5182), `$`, as UID ranges: each run of
 * consecutive messages one [first, last] pair (8 bytes), however many messages it spans. A range is read against
 * the UIDs the session knows, so an expunged message leaves `$` when its number leaves (no UID is ever given
 * again, and new mail comes after every saved range). Selecting a mailbox starts with an empty result.
 */
export class SelectedMailbox {
  readonly mailboxId: number;
  readonly name: string;
  readonly readOnly: boolean;
  readonly uidValidity: number;
  highestModseq: number;
  private uids: Uint32Array;
  private heldVanished = new Set<number>();
  /** `$`: ascending, disjoint [first, last] UID pairs, flattened. */
  private saved = new Uint32Array(0);

  constructor(init: SelectedMailboxInit) {
    this.mailboxId = init.mailboxId;
    this.name = init.name;
    this.readOnly = init.readOnly;
    this.uidValidity = init.uidValidity;
    this.highestModseq = init.highestModseq;
    this.uids = uidsOfRuns(init.uidRuns);
  }

  get exists(): number {
    return this.uids.length;
  }

  /** The largest UID the client knows of, 0 in an empty mailbox. */
  get lastUid(): number {
    return this.uids.length === 0 ? 0 : this.uids[this.uids.length - 1];
  }

  uidAt(seq: number): number | undefined {
    return seq >= 1 && seq <= this.uids.length ? this.uids[seq - 1] : undefined;
  }

  seqOf(uid: number): number | undefined {
    const index = lowerBound(this.uids, uid);
    return this.uids[index] === uid ? index + 1 : undefined;
  }

  /** The UIDs a set names that the client knows of, ascending: `*` is the last message, or the largest UID. */
  uidsIn(set: MessageSet, byUid: boolean): number[] {
    const uids: number[] = [];
    for (const [start, end] of this.indexRanges(set, byUid)) for (let index = start; index < end; index++) uids.push(this.uids[index]);
    return uids;
  }

  /**
   * The set as [start, end) ranges of positions (sequence number - 1), ascending and disjoint: a command over a
   * large set walks them in slices without a list of every UID.
   */
  indexRanges(set: MessageSet, byUid: boolean): [number, number][] {
    // `$` names messages, not numbers: read as UIDs in a command of either kind.
    const asUids = byUid || set === SAVED_RESULT;
    const ranges = set === SAVED_RESULT ? this.savedRanges() : sequenceRanges(set, byUid ? this.lastUid : this.exists);
    const positions: [number, number][] = [];
    for (const [first, last] of ranges) {
      const range: [number, number] = asUids ? [lowerBound(this.uids, first), lowerBound(this.uids, last + 1)] : [first - 1, Math.min(last, this.exists)];
      if (range[0] < range[1]) positions.push(range);
    }
    return positions;
  }

  /** The set as UIDs (a UID command's, or `$`'s saved ones). */
  uidSet(set: MessageSet): SequenceSet {
    return set === SAVED_RESULT ? this.savedRanges().map(([from, to]) => ({ from, to })) : set;
  }

  /** Saves these known UIDs, ascending, as `$`, replacing what was saved; none empties it. */
  saveResult(uids: readonly number[]): void {
    const pairs: number[] = [];
    let previous = -1;
    for (const uid of uids) {
      const position = lowerBound(this.uids, uid);
      if (this.uids[position] !== uid) continue;
      if (pairs.length > 0 && position === previous + 1) pairs[pairs.length - 1] = uid;
      else pairs.push(uid, uid);
      previous = position;
    }
    this.saved = Uint32Array.from(pairs);
  }

  private savedRanges(): [number, number][] {
    const ranges: [number, number][] = [];
    for (let index = 0; index < this.saved.length; index += 2) ranges.push([this.saved[index], this.saved[index + 1]]);
    return ranges;
  }

  /** The UIDs the client knows of within ascending [first, last] ranges (VANISHED's), however wide the ranges. */
  knownIn(ranges: readonly (readonly [number, number])[]): number[] {
    const known: number[] = [];
    for (const [first, last] of ranges) {
      for (let index = lowerBound(this.uids, first); index < this.uids.length && this.uids[index] <= last; index++) known.push(this.uids[index]);
    }
    return known;
  }

  /** The UIDs from position `start` to before `end`: a slice of an indexRanges range. */
  uidsBetween(start: number, end: number): number[] {
    return Array.from(this.uids.subarray(start, end));
  }

  /** Forgets the UIDs that left (their numbers told to the client) and shifts the sequence numbers after them. */
  expunge(gone: ReadonlySet<number>): void {
    this.uids = this.uids.filter((uid) => !gone.has(uid));
  }

  /** UIDs that left but whose numbers are kept until a command that may send EXPUNGE. */
  holdVanished(uids: readonly number[]): void {
    uids.forEach((uid) => this.heldVanished.add(uid));
  }

  takeHeldVanished(): number[] {
    const held = [...this.heldVanished].filter((uid) => this.seqOf(uid) !== undefined).sort((a, b) => a - b);
    this.heldVanished.clear();
    return held;
  }

  /** Numbers the new UIDs (each above every known one, ascending) after the others. */
  append(added: readonly number[]): void {
    if (added.length === 0) return;
    const grown = new Uint32Array(this.uids.length + added.length);
    grown.set(this.uids);
    grown.set(added, this.uids.length);
    this.uids = grown;
  }
}

function uidsOfRuns(runs: readonly (readonly [number, number])[]): Uint32Array {
  const uids = new Uint32Array(runs.reduce((total, [first, last]) => total + last - first + 1, 0));
  let position = 0;
  for (const [first, last] of runs) for (let uid = first; uid <= last; uid++) uids[position++] = uid;
  return uids;
}

/** The first position whose UID is at least `uid`. */
function lowerBound(uids: Uint32Array, uid: number): number {
  let low = 0;
  let high = uids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (uids[middle] < uid) low = middle + 1;
    else high = middle;
  }
  return low;
}
