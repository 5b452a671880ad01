import { parseSortCommand } from '../protocol/sort-arguments';
import { spacedNumbers, textPieces } from '../protocol/text-pieces';
import { asksModseq, searchCriterion } from '../selected/search-criterion';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * SORT and UID SORT (RFC 5256, RFC 5957's DISPLAYFROM and DISPLAYTO): SEARCH's keys ordered by the sort criteria in
 * one statement (libs/mail imapSort), with CONDSTORE's MODSEQ as SEARCH has it (RFC 7162 3.1.5). The client is first
 * told of mail that came, so what is found has numbers; `* SORT` is written a piece at a time.
 */
export const sort: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, session, services }) => {
    const byUid = name === 'UID SORT';
    const command = parseSortCommand(args);
    const withModseq = asksModseq(command.key);
    if (withModseq) session.enable('CONDSTORE');
    await session.reportChanges({ expunges: false });
    const mailbox = session.selected()!;
    const criterion = searchCriterion(command.key, mailbox);
    const found = await services.sort(session.userId(), mailbox.mailboxId, criterion, command.keys);
    const numbers = byUid ? found.uids.filter((uid) => mailbox.seqOf(uid) !== undefined) : found.uids.flatMap((uid) => mailbox.seqOf(uid) ?? []);
    const modseq = withModseq && numbers.length > 0 ? ` (MODSEQ ${found.highestModseq})` : '';
    await session.write(['* SORT', { textPieces: textPieces(spacedNumbers(numbers)) }, modseq]);
    return ok(`${name} completed`);
  },
};
