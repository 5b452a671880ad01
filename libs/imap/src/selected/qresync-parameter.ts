import { numbersInSet, parseSequenceSet, type SequenceSet } from '../protocol/sequence-set';
import { atomOf, ImapCommandError, listOf, numberOf, type Token } from '../protocol/tokens';

/** SELECT's QRESYNC parameter (RFC 7162 3.2.5): what the client remembers of the mailbox. */
export interface QresyncParameter {
  uidValidity: number;
  modseq: number;
  /** The UIDs the client knows; VANISHED (EARLIER) names only those. */
  knownUids?: SequenceSet;
}

export interface SelectParameters {
  condstore: boolean;
  qresync?: QresyncParameter;
}

/** `(CONDSTORE)` or `(QRESYNC (uidvalidity modseq [known-uids [seq-match-data]]))`. */
export function parseSelectParameters(token: Token | undefined): SelectParameters {
  if (!token) return { condstore: false };
  const items = listOf(token, 'SELECT parameters');
  const parameters: SelectParameters = { condstore: false };
  for (let index = 0; index < items.length; index++) {
    const name = atomOf(items[index], 'a SELECT parameter').toUpperCase();
    if (name === 'CONDSTORE') parameters.condstore = true;
    else if (name === 'QRESYNC') parameters.qresync = parseQresync(listOf(items[++index], 'QRESYNC parameters'));
    else throw new ImapCommandError(`unknown SELECT parameter ${name}`);
  }
  return parameters;
}

function parseQresync(items: Token[]): QresyncParameter {
  if (items.length < 2 || items.length > 4) throw new ImapCommandError('QRESYNC takes (uidvalidity modseq [known-uids [seq-match-data]])');
  const uidValidity = numberOf(items[0], 'a UIDVALIDITY');
  const modseq = numberOf(items[1], 'a mod-sequence', Number.MAX_SAFE_INTEGER);
  // The sequence match data only narrows what the server sends when it cannot tell exactly; this one always can.
  const known = items[2]?.type === 'atom' ? parseSequenceSet(items[2].value) : undefined;
  return { uidValidity, modseq, ...(known ? { knownUids: known } : {}) };
}

/** The ascending UIDs the client knows of (all of them when it named none). */
export function knownOnly(uids: readonly number[], parameter: QresyncParameter): number[] {
  return parameter.knownUids ? numbersInSet(uids, parameter.knownUids) : [...uids];
}
