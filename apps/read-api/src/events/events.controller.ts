import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentUser, Public, type AuthenticatedUser } from '@letterbox/auth';
import { UserEventFeed, type UserEventSink } from '@letterbox/events';
import { ApiZodQuery, ZodValidationPipe } from '@letterbox/http';
import { EventStreamAuthGuard } from './event-stream-auth.guard';
import { eventStreamHeaders, eventStreamQuery } from './event-stream.schemas';
import { SseStream, type SseTiming } from './sse-stream';

const TIMING: SseTiming = { retryMs: 3000, heartbeatMs: 15_000 };
/** Nest's @Headers() takes no pipe. */
const HEADERS = new ZodValidationPipe(eventStreamHeaders, 'header');

@ApiTags('events')
@ApiBearerAuth()
@Controller('v2/events')
export class EventsController {
  constructor(private readonly feed: UserEventFeed) {}

  /**
   * The signed-in user's mail events as Server-Sent Events: `mail.created`, `mail.updated`
   * and `mail.deleted`, each with its id. With Last-Event-ID the events missed since are
   * sent first; `resync` says they are no longer kept (refetch); `error` says the stream
   * is ending, and the client should reconnect with its Last-Event-ID.
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
    const stop = await this.feed.follow(user.userId, sinkOf(stream), headers['last-event-id'] ?? query.lastEventId);
    stream.onClose(stop);
    // Only now that the feed follows the user: a client that refetches when the stream opens misses nothing.
    stream.open();
  }
}

function sinkOf(stream: SseStream): UserEventSink {
  return {
    event: (id, event) => stream.send(event.type, event, id),
    resync: (latestId) => stream.send('resync', { type: 'resync' }, latestId),
    broken: () => {
      stream.send('error', { type: 'error', detail: 'live updates were interrupted; reconnect with the Last-Event-ID to resume' });
      stream.end();
    },
  };
}
