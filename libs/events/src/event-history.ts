import { whenReady, type RedisConnection } from '@letterbox/redis';
import type { MailEvent } from './mail-events';
import { EventsUnavailableError } from './events-unavailable-error';

/** What a client resuming from an id gets: the events after it, or a resync when the history no longer reaches back to it. */
export type HistorySince = { replay: Array<[id: string, event: MailEvent]> } | { resync: true; latestId: string | undefined };

/**
 * The events after `lastEventId` in a user's history. The read starts at the id itself:
 * only when that event is still kept is nothing after it trimmed away (trimming takes the
 * oldest first). An id trimmed, expired with its history, or never given is a resync,
 * with the newest id kept (if any) to resume from after refetching.
 */
export async function historySince(redis: RedisConnection, history: string, lastEventId: string): Promise<HistorySince> {
  await whenReady(redis, EventsUnavailableError);
  const results = await redis.multi().xrange(history, lastEventId, '+').xrevrange(history, '+', '-', 'COUNT', 1).exec();
  const failure = results?.find(([error]) => error)?.[0];
  if (failure || !results) throw failure ?? new Error('reading the event history was aborted');
  const since = results[0][1] as Array<[string, string[]]>;
  const newest = results[1][1] as Array<[string, string[]]>;
  if (since[0]?.[0] !== lastEventId) return { resync: true, latestId: newest[0]?.[0] };
  return { replay: since.slice(1).map(([id, fields]) => [id, JSON.parse(eventField(fields)) as MailEvent]) };
}

function eventField(fields: string[]): string {
  const index = fields.indexOf('event');
  if (index < 0 || index % 2 !== 0) throw new Error('an event history entry has no event field');
  return fields[index + 1];
}
