import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * CLOSE (RFC 3501 6.4.2): the \Deleted mail of a read-write mailbox deleted for good, as EXPUNGE does, and the
 * mailbox left, with no untagged EXPUNGE.
 */
export const close: CommandHandler = {
  states: ['selected'],
  run: async ({ args, session, services }) => {
    noMore(args, 0);
    const mailbox = session.selected()!;
    if (!mailbox.readOnly) await services.expunger.expunge(session.userId(), mailbox.mailboxId);
    session.unselect();
    return ok('CLOSE completed');
  },
};
