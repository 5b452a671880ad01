import { untagged } from '../protocol/response-format';
import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { ANY_STATE } from '../session/session-state';

export const capability: CommandHandler = {
  states: ANY_STATE,
  run: async ({ args, session }) => {
    noMore(args, 0);
    session.send(untagged(`CAPABILITY ${session.capabilities().join(' ')}`));
    return ok('CAPABILITY completed');
  },
};
