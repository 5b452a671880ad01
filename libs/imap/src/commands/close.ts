import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';

/**
 * CLOSE (RFC 3501 6.4.2): leaves the mailbox, with no untagged EXPUNGE. Removing the \Deleted mail of a
 * read-write mailbox is EXPUNGE's work, which CLOSE does not do yet: the mail stays marked \Deleted.
 */
export const close: CommandHandler = {
  states: ['selected'],
  run: async ({ args, session }) => {
    noMore(args, 0);
    session.unselect();
    return ok('CLOSE completed');
  },
};
