import { parseThreadCommand } from '../protocol/sort-arguments';
import { textPieces } from '../protocol/text-pieces';
import { threadLists } from '../protocol/thread-format';
import { asksModseq, searchCriterion } from '../selected/search-criterion';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * THREAD and UID THREAD (RFC 5256) by ORDEREDSUBJECT or REFERENCES, the threads found in one statement (libs/mail
 * imapThreads) and `* THREAD` written a piece at a time. The client is first told of mail that came, so what is
 * found has numbers.
 */
export const thread: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, session, services }) => {
    const byUid = name === 'UID THREAD';
    const command = parseThreadCommand(args);
    if (asksModseq(command.key)) session.enable('CONDSTORE');
    await session.reportChanges({ expunges: false });
    const mailbox = session.selected()!;
    const criterion = searchCriterion(command.key, mailbox);
    const found = await services.thread(session.userId(), mailbox.mailboxId, criterion, command.algorithm);
    const numbers = found.uids.map((uid) => (mailbox.seqOf(uid) === undefined ? undefined : byUid ? uid : mailbox.seqOf(uid)));
    await session.write(['* THREAD', { textPieces: textPieces(threadLists(numbers, found.sizes)) }]);
    return ok(`${name} completed`);
  },
};
