import type { SourcePosition } from './sieve-error';

/** How a test compares: its match type (relational's `value` and `count` with their relation) and comparator. */
export interface Match {
  type: 'is' | 'contains' | 'matches' | 'value' | 'count';
  relation?: 'gt' | 'ge' | 'lt' | 'le' | 'eq' | 'ne';
  comparator: 'i;ascii-casemap' | 'i;octet' | 'i;ascii-numeric';
}

export type AddressPart = 'all' | 'localpart' | 'domain';

export type SieveTest =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'not'; test: SieveTest }
  | { kind: 'allof' | 'anyof'; tests: SieveTest[] }
  | { kind: 'exists'; headers: string[] }
  | { kind: 'size'; over: boolean; limit: number }
  | { kind: 'header'; headers: string[]; keys: string[]; match: Match }
  | { kind: 'address'; headers: string[]; part: AddressPart; keys: string[]; match: Match }
  | { kind: 'envelope'; parts: Array<'from' | 'to'>; part: AddressPart; keys: string[]; match: Match }
  | { kind: 'body'; keys: string[]; match: Match };

/** A flag a rule can set on the mail it files: read, or flagged. */
export type SieveFlag = 'seen' | 'flagged';

export type SieveStatement =
  | { kind: 'keep'; flags?: SieveFlag[] }
  | { kind: 'fileinto'; folder: string; copy: boolean; flags?: SieveFlag[]; at: SourcePosition }
  | { kind: 'discard' }
  | { kind: 'reject'; reason: string }
  | { kind: 'stop' }
  | { kind: 'flags'; change: 'set' | 'add' | 'remove'; flags: SieveFlag[] }
  | { kind: 'redirect'; address: string; copy: boolean }
  | { kind: 'vacation'; reason: string; days: number; subject?: string; from?: string; addresses: string[] }
  | { kind: 'if'; branches: Array<{ test?: SieveTest; body: SieveStatement[] }> };

/** A script ready to run: its statements, the folders it files into and the addresses it redirects to (each where it is first named). */
export interface SieveProgram {
  statements: SieveStatement[];
  folders: Array<{ name: string; at: SourcePosition }>;
  redirects: Array<{ address: string; at: SourcePosition }>;
}
