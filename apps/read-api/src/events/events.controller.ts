import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentUser, Public, type AuthenticatedUser } from '@letterbox/auth';
import { UserEventFeed, type UserEventSink } from '@letterbox/events';
import { ApiZodQuery, ZodValidationPipe } from '@letterbox/http';
import { EventStreamAuthGuard } from './event-stream-auth.guard';
import { eventStreamHeaders, eventStreamQuery } from './event-stream.schemas';
import { OpenStreams } from './open-streams';
import { SseStream, type SseTiming } from './sse-stream';

const TIMING: SseTiming = { retryMs: 3000, heartbeatMs: 15_000 };
/** setTimeout's longest delay; a token living longer is checked again when the client reconnects. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Nest's @Headers() takes no pipe. */
const HEADERS = new ZodValidationPipe(eventStreamHeaders, 'header');

@ApiTags('events')
@ApiBearerAuth()
@Controller('v2/events')
export class EventsController {
  constructor(
    private readonly feed: UserEventFeed,
    private readonly openStreams: OpenStreams,
  ) {}

  /**
   * The signed-in user's mail events as Server-Sent Events: `mail.created`, `mail.updated`
   * and `mail.deleted`, each with its id. With Last-Event-ID the events missed since are
   * sent first; `resync` says they are no longer kept (refetch); `error` says the stream
   * is ending, and the client should reconnect with its Last-Event-ID (with a fresh token
   * when the stream ended because its token expired). The stream ends within a second of a
   * sign-out of its session (or of all), a new password, a disable or a removal of the account,
   * with an `error` event saying so (reconnecting then answers 401). A user may hold a few
   * streams open at once: past them, a new stream closes an older one (OpenStreams says which).
   */
  @Get()
  // Not public: EventStreamAuthGuard stands in for the global guard, which reads only the Authorization header.
  @Public()
  @UseGuards(EventStreamAuthGuard)
  @ApiZodQuery(eventStreamQuery)
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'resume after this event (EventSource sends it when it reconnects)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'an endless text/event-stream' })
  async stream(
    @CurrentUser() user: AuthenticatedUser,
    @Query(new ZodValidationPipe(eventStreamQuery, 'query')) query: z.infer<typeof eventStreamQuery>,
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const headers = HEADERS.transform({ 'last-event-id': lastEventIdHeader });
    const stream = new SseStream(reply, TIMING);
    const release = await this.openStreams.take({ user, end: (detail) => endWithError(stream, detail) });
    stream.onClose(release);
    const stop = await this.feed.follow(user.userId, sinkOf(stream), headers['last-event-id'] ?? query.lastEventId);
    stream.onClose(stop);
    const expiry = setTimeout(() => endExpired(stream), Math.min(user.tokenExpiresAt * 1000 - Date.now(), MAX_TIMER_MS));
    stream.onClose(() => clearTimeout(expiry));
    // Only now that the feed follows the user: a client that refetches when the stream opens misses nothing.
    stream.open();
  }
}

function endExpired(stream: SseStream): void {
  endWithError(stream, 'the access token has expired; reconnect with a new one and the Last-Event-ID to resume');
}

function endWithError(stream: SseStream, detail: string): void {
  stream.send('error', { type: 'error', detail });
  stream.end();
}

function sinkOf(stream: SseStream): UserEventSink {
  return {
    event: (id, event) => stream.send(event.type, event, id),
    resync: (latestId) => stream.send('resync', { type: 'resync' }, latestId),
    broken: () => endWithError(stream, 'live updates were interrupted; reconnect with the Last-Event-ID to resume'),
  };
}
