import { Inject, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { TokenAuthenticator, UserSessions } from '@letterbox/auth';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import type { UserWrites } from '@letterbox/db';
import { eventSubscriberConnection, MailAnnouncer, UserEventFeed, UserEvents } from '@letterbox/events';
import { READ_ROUTING } from '@letterbox/nest-infrastructure';
import type { ReadApiConfig } from '../read-api.config';
import { EventsController } from './events.controller';
import { OpenStreams } from './open-streams';

const EVENT_CONNECTIONS = Symbol('EVENT_CONNECTIONS');

interface EventConnections {
  commands: RedisConnection;
  /** One per process, however many streams are open: the feed fans out in process. */
  subscriber: RedisConnection;
}

/** Live mail events: the /v2/events stream, and the announcer that the changes of mail publish with. */
@Module({})
export class EventsModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly feed: UserEventFeed,
    @Inject(EVENT_CONNECTIONS) private readonly connections: EventConnections,
  ) {}

  static forConfig(config: ReadApiConfig): DynamicModule {
    return {
      module: EventsModule,
      controllers: [EventsController],
      providers: [
        {
          provide: EVENT_CONNECTIONS,
          useFactory: (): EventConnections => ({
            commands: failFastConnection(config, 'redis events'),
            subscriber: eventSubscriberConnection(config, `letterbox-read-api-events-${config.QUEUE_PREFIX}`),
          }),
        },
        {
          provide: UserEvents,
          useFactory: ({ commands }: EventConnections) => new UserEvents(commands, config.QUEUE_PREFIX),
          inject: [EVENT_CONNECTIONS],
        },
        {
          provide: UserEventFeed,
          useFactory: ({ subscriber, commands }: EventConnections) => new UserEventFeed(subscriber, commands, config.QUEUE_PREFIX),
          inject: [EVENT_CONNECTIONS],
        },
        {
          provide: OpenStreams,
          useFactory: (authenticator: TokenAuthenticator, sessions: UserSessions) => new OpenStreams(config.EVENT_STREAMS_PER_USER, authenticator, sessions),
          inject: [TokenAuthenticator, UserSessions],
        },
        {
          provide: MailAnnouncer,
          useFactory: (events: UserEvents, writes: UserWrites) => new MailAnnouncer(events, writes),
          inject: [UserEvents, READ_ROUTING],
        },
      ],
      exports: [MailAnnouncer],
    };
  }

  /** Before the HTTP server closes, which waits for open responses: a stream is open until it is ended. */
  beforeApplicationShutdown(): void {
    this.feed.close();
  }

  onApplicationShutdown(): void {
    this.connections.subscriber.disconnect();
    this.connections.commands.disconnect();
  }
}
