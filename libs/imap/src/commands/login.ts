import { noMore, textOf } from '../protocol/tokens';
import type { CommandHandler } from '../session/command-handler';
import { NOT_SIGNED_IN } from '../session/session-state';
import { refuseWithoutTls, signIn } from './sign-in';

export const login: CommandHandler = {
  states: NOT_SIGNED_IN,
  run: async (context) => {
    noMore(context.args, 2);
    const [email, password] = context.args;
    const credentials = [textOf(email, 'the user name'), textOf(password, 'the password')] as const;
    refuseWithoutTls(context);
    return signIn(context, ...credentials);
  },
};
