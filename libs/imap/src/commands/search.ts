import { parseSearchCommand, type SearchReturn } from '../protocol/search-keys';
import { formatSequenceSet } from '../protocol/sequence-set';
import { ImapCommandError } from '../protocol/tokens';
import { asksModseq, searchCriterion } from '../selected/search-criterion';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * SEARCH and UID SEARCH (RFC 3501 6.4.4) with ESEARCH's RETURN (RFC 4731) and CONDSTORE's MODSEQ (RFC 7162 3.1.5):
 * the keys become one statement over the mailbox (libs/mail imapSearch). The client is first told of mail that
 * came, so what it finds has numbers; nothing is expunged meanwhile (RFC 3501 7.4.1).
 */
export const search: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, tag, session, services }) => {
    const byUid = name === 'UID SEARCH';
    const command = parseSearchCommand(args);
    if (command.returns?.includes('SAVE')) throw new ImapCommandError('RETURN (SAVE) needs SEARCHRES, which this server does not offer');
    const withModseq = asksModseq(command.key);
    if (withModseq) session.enable('CONDSTORE');
    await session.reportChanges({ expunges: false });
    const mailbox = session.selected()!;
    const criterion = searchCriterion(command.key, mailbox);
    const found = await services.search(session.userId(), mailbox.mailboxId, criterion);
    const numbers = byUid ? found.uids.filter((uid) => mailbox.seqOf(uid) !== undefined) : found.uids.flatMap((uid) => mailbox.seqOf(uid) ?? []);
    const modseq = withModseq && numbers.length > 0 ? found.highestModseq : undefined;
    await session.write([command.returns ? esearchLine(tag, byUid, command.returns, numbers, modseq) : searchLine(numbers, modseq)]);
    return ok(`${name} completed`);
  },
};

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
