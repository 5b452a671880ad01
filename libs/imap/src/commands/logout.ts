import { untagged } from '../protocol/response-format';
import { noMore } from '../protocol/tokens';
import type { CommandHandler } from '../session/command-handler';
import { ANY_STATE } from '../session/session-state';

export const logout: CommandHandler = {
  states: ANY_STATE,
  run: async ({ args, session }) => {
    noMore(args, 0);
    session.send(untagged('BYE Letterbox IMAP signing off'));
    return { status: 'OK', text: 'LOGOUT completed', after: () => session.close() };
  },
};
