import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { ANY_STATE } from '../session/session-state';

/** NOOP: with a mailbox selected, the moment the client hears what changed in it (the session reports after every command). */
export const noop: CommandHandler = {
  states: ANY_STATE,
  run: async ({ args, name }) => {
    noMore(args, 0);
    return ok(`${name} completed`);
  },
};
