import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { ANY_STATE } from '../session/session-state';

/** NOOP: nothing to do until a mailbox is selected; its answer is where updates will come. */
export const noop: CommandHandler = {
  states: ANY_STATE,
  run: async ({ args, name }) => {
    noMore(args, 0);
    return ok(`${name} completed`);
  },
};
