import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';

/** SUBSCRIBE and UNSUBSCRIBE: taken and kept nowhere, since every visible mailbox is subscribed (LSUB lists them all). */
export const subscribe: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, name, session }) => {
    noMore(args, 1);
    mailboxNameArgument(args[0], session);
    return ok(`${name} completed`);
  },
};
