import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';

/** CHECK (RFC 3501 6.4.1): every change is stored as it is made, so there is nothing to settle; a NOOP. */
export const check: CommandHandler = {
  states: ['selected'],
  run: async ({ args }) => {
    noMore(args, 0);
    return ok('CHECK completed');
  },
};
