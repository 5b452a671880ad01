import { continuation } from '../protocol/response-format';
import { ImapCommandError, noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';

/** IDLE (RFC 2177): the session waits for DONE; the session's idle timeout still ends it. */
export const idle: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session }) => {
    noMore(args, 0);
    session.send(continuation('idling'));
    const line = await session.readContinuationLine();
    if (line.toUpperCase() !== 'DONE') throw new ImapCommandError('expected DONE to end IDLE');
    return ok('IDLE terminated');
  },
};
