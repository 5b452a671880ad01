import { z } from 'zod';
import { isEventId } from '@letterbox/events';

const eventId = z.string().max(41).refine(isEventId, 'must be the id of an event this stream sent, such as 1767225600000-0');

/** EventSource cannot send headers, so the token and the id to resume from may come in the URL instead. */
export const eventStreamQuery = z
  .object({
    access_token: z.string().min(1).max(4096).describe('the access token, for clients that cannot send an Authorization header').optional(),
    lastEventId: eventId.describe('resume after this event; the Last-Event-ID header takes precedence').optional(),
  })
  .strict();

export const eventStreamHeaders = z.object({
  'last-event-id': eventId.optional(),
});
