import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';

/** UNSELECT (RFC 3691): leaves the mailbox without expunging anything. */
export const unselect: CommandHandler = {
  states: ['selected'],
  run: async ({ args, session }) => {
    noMore(args, 0);
    session.unselect();
    return ok('UNSELECT completed');
  },
};
