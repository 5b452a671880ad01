import { sequenceRanges, type SequenceSet } from '../protocol/sequence-set';

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
 */
export class SelectedMailbox {
  readonly mailboxId: number;
  readonly name: string;
  readonly readOnly: boolean;
  readonly uidValidity: number;
  highestModseq: number;
  private uids: Uint32Array;
  private heldVanished = new Set<number>();

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
  uidsIn(set: SequenceSet, byUid: boolean): number[] {
    const uids: number[] = [];
    for (const [start, end] of this.indexRanges(set, byUid)) for (let index = start; index < end; index++) uids.push(this.uids[index]);
    return uids;
  }

  /**
   * The set as [start, end) ranges of positions (sequence number - 1), ascending and disjoint: a command over a
   * large set walks them in slices without a list of every UID.
   */
  indexRanges(set: SequenceSet, byUid: boolean): [number, number][] {
    const ranges = sequenceRanges(set, byUid ? this.lastUid : this.exists);
    const positions: [number, number][] = [];
    for (const [first, last] of ranges) {
      const range: [number, number] = byUid ? [lowerBound(this.uids, first), lowerBound(this.uids, last + 1)] : [first - 1, Math.min(last, this.exists)];
      if (range[0] < range[1]) positions.push(range);
    }
    return positions;
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
