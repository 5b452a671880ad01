import type { ImapSearchResult } from '@letterbox/mail';
import { parseSearchCommand, type SearchReturn } from '../protocol/search-keys';
import { formatSequenceSet } from '../protocol/sequence-set';
import { asksModseq, searchCriterion } from '../selected/search-criterion';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * SEARCH and UID SEARCH (RFC 3501 6.4.4) with ESEARCH's RETURN (RFC 4731), SEARCHRES's SAVE (RFC 5182) and
 * CONDSTORE's MODSEQ (RFC 7162 3.1.5): the keys become one statement over the mailbox (libs/mail imapSearch). The
 * client is first told of mail that came, so what it finds has numbers; nothing is expunged meanwhile (RFC 3501
 * 7.4.1). A SEARCH that saves and fails leaves `$` empty (RFC 5182 2.1).
 */
export const search: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, tag, session, services }) => {
    const byUid = name === 'UID SEARCH';
    const command = parseSearchCommand(args);
    const saves = command.returns?.includes('SAVE') ?? false;
    const mailbox = session.selected()!;
    const withModseq = asksModseq(command.key);
    if (withModseq) session.enable('CONDSTORE');
    let found: ImapSearchResult;
    try {
      await session.reportChanges({ expunges: false });
      // `$` among the keys is the result saved before this search.
      found = await services.search(session.userId(), mailbox.mailboxId, searchCriterion(command.key, mailbox));
    } catch (error) {
      if (saves) mailbox.saveResult([]);
      throw error;
    }
    const known = found.uids.filter((uid) => mailbox.seqOf(uid) !== undefined);
    if (saves) mailbox.saveResult(savedPart(command.returns!, known));
    const numbers = byUid ? known : known.map((uid) => mailbox.seqOf(uid)!);
    const modseq = withModseq && numbers.length > 0 ? found.highestModseq : undefined;
    const returns = command.returns?.filter((option) => option !== 'SAVE');
    // SAVE alone answers nothing but OK (RFC 5182 2.1).
    if (returns === undefined) await session.write([searchLine(numbers, modseq)]);
    else if (!(saves && returns.length === 0)) await session.write([esearchLine(tag, byUid, returns, numbers, modseq)]);
    return ok(`${name} completed${saves ? ', result saved' : ''}`);
  },
};

/** What SAVE keeps (RFC 5182 2.4): with MIN or MAX and neither ALL nor COUNT, those messages alone; else all found. */
export function savedPart(returns: readonly SearchReturn[], found: readonly number[]): number[] {
  if (returns.includes('ALL') || returns.includes('COUNT') || found.length === 0) return [...found];
  const min = returns.includes('MIN');
  const max = returns.includes('MAX');
  if (!min && !max) return [...found];
  return [...new Set([...(min ? [found[0]] : []), ...(max ? [found[found.length - 1]] : [])])];
}

/** `* ESEARCH (TAG "a1") UID MIN 2 MAX 9 COUNT 3 ALL 2,5,9`: an empty RETURN () is ALL; MIN, MAX and ALL only when something matched. */
export function esearchLine(tag: string, byUid: boolean, returns: SearchReturn[], numbers: number[], modseq: number | undefined): string {
  const asked = new Set(returns.length === 0 ? ['ALL'] : returns);
  const parts = [`* ESEARCH (TAG "${tag}")`, ...(byUid ? ['UID'] : [])];
  if (asked.has('MIN') && numbers.length > 0) parts.push(`MIN ${numbers[0]}`);
  if (asked.has('MAX') && numbers.length > 0) parts.push(`MAX ${numbers[numbers.length - 1]}`);
  if (asked.has('COUNT')) parts.push(`COUNT ${numbers.length}`);
  if (asked.has('ALL') && numbers.length > 0) parts.push(`ALL ${formatSequenceSet(numbers)}`);
  if (modseq !== undefined) parts.push(`MODSEQ ${modseq}`);
  return parts.join(' ');
}

/** `* SEARCH 2 5 9 (MODSEQ 12)`: a search of 1:* over a million messages is a line of megabytes, written with backpressure. */
function searchLine(numbers: number[], modseq: number | undefined): string {
  return `* SEARCH${numbers.length > 0 ? ' ' : ''}${numbers.join(' ')}${modseq === undefined ? '' : ` (MODSEQ ${modseq})`}`;
}
