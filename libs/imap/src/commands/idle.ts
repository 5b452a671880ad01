import { loggerFor } from '@letterbox/observability';
import { continuation } from '../protocol/response-format';
import { ImapCommandError, noMore } from '../protocol/tokens';
import { ok, type CommandContext, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';

const logger = loggerFor('imap');

/** While idling, the mailbox is looked at this often even without a ring: the events may be away (Redis restarting). */
const IDLE_POLL_MS = 30_000;

/**
 * IDLE (RFC 2177): the session waits for DONE. With a mailbox selected, each ring of the user's doorbell (a
 * change announced by any process) and a slow poll make it report what changed, one report at a time.
 */
export const idle: CommandHandler = {
  states: SIGNED_IN,
  run: async (context) => {
    noMore(context.args, 0);
    const { session } = context;
    const watch = session.selected() ? await watchMailbox(context) : undefined;
    session.send(continuation('idling'));
    watch?.look();
    try {
      const line = await session.readContinuationLine();
      if (line.toUpperCase() !== 'DONE') throw new ImapCommandError('expected DONE to end IDLE');
    } finally {
      await watch?.stop();
    }
    return ok('IDLE terminated');
  },
};

/** Reports on every ring, never two at once: a ring during a report makes one more report after it. */
async function watchMailbox({ session, services }: CommandContext): Promise<{ look: () => void; stop: () => Promise<void> }> {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const look = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = session
      .reportChanges()
      .catch((error: unknown) => logger.warn({ err: error, clientAddress: session.clientAddress }, 'IMAP IDLE update failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          look();
        }
      });
  };
  const unlisten = await services.doorbell.listen(session.userId(), look);
  const poll = setInterval(look, IDLE_POLL_MS);
  return {
    look,
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      unlisten();
      while (running) await running;
    },
  };
}
