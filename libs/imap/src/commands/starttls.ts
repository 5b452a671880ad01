import { ImapCommandError, noMore } from '../protocol/tokens';
import type { CommandHandler } from '../session/command-handler';
import { NOT_SIGNED_IN } from '../session/session-state';

/**
 * STARTTLS: the handshake on the same connection. What the client sent after the command in the clear is
 * thrown away before the handshake (the command-injection class of bug, CVE-2011-0411 and kin): under TLS only
 * what came under TLS counts.
 */
export const starttls: CommandHandler = {
  states: NOT_SIGNED_IN,
  run: async ({ args, session, services }) => {
    noMore(args, 0);
    if (session.secure) throw new ImapCommandError('TLS is on already');
    const context = services.tlsContext();
    if (!context) throw new ImapCommandError('STARTTLS is not offered here', 'NO');
    session.stopReadingForTls();
    return { status: 'OK', text: 'Begin TLS negotiation now', after: () => session.upgradeToTls(context) };
  },
};
