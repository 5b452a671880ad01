import type { UserEventFeed } from '@letterbox/events';
import type { MailDoorbell } from '@letterbox/imap';
import { loggerFor } from '@letterbox/observability';

const logger = loggerFor('imap');

/**
 * The process's one live-event subscription as IMAP's doorbell: any event of the user rings, since the session
 * reads what changed from the database itself. Broken events ring once too; IDLE's poll covers the gap.
 */
export function eventDoorbell(feed: UserEventFeed): MailDoorbell {
  return {
    listen: (userId, ring) =>
      feed.follow(userId, {
        event: ring,
        resync: ring,
        broken: (error) => {
          logger.warn({ err: error, userId }, 'live mail events stopped for an IMAP session; it polls instead');
          ring();
        },
      }),
  };
}
