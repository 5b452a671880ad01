import { parseMessageSet } from '../protocol/sequence-set';
import { atomOf, ImapCommandError, noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * EXPUNGE and UID EXPUNGE (RFC 3501 6.4.3, RFC 4315 2.1): the mailbox's \Deleted mails (of the set only, for UID
 * EXPUNGE) deleted for good in one statement, then the client told each that left (EXPUNGE or VANISHED).
 */
export const expunge: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, session, services }) => {
    const mailbox = session.selected()!;
    if (mailbox.readOnly) throw new ImapCommandError('The mailbox is read-only', 'NO');
    let uids: number[] | undefined;
    if (name === 'UID EXPUNGE') {
      noMore(args, 1);
      uids = mailbox.uidsIn(parseMessageSet(atomOf(args[0], 'a UID set')), true);
    } else noMore(args, 0);
    if (uids?.length !== 0) await services.expunger.expunge(session.userId(), mailbox.mailboxId, uids);
    await session.reportChanges();
    return ok(`${name} completed`);
  },
};
