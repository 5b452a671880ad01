import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CachedUserSessions, sessionRevocationsChannel } from '@letterbox/accounts';
import { AccessTokens, FailedAttemptLimiter, TokenAuthenticator, UserSessions } from '@letterbox/auth';
import { databaseFromSettings, readRouting, type Database, type DatabaseSettings } from '@letterbox/db';
import { BlobStore, createBlobStore, type StorageSettings } from '@letterbox/storage';
import { postgresCheck, redisCheck, storageCheck } from '@letterbox/observability';
import { redisConnection, type RedisConnection, type RedisTarget } from '@letterbox/redis';
import { DATABASE } from './database-token';
import { HealthController } from './health.controller';
import { READ_ROUTING } from './read-routing-token';
import { READINESS_CHECKS } from './readiness-checks';
import { RecordUserWritesInterceptor } from './record-user-writes.interceptor';
import { RequestLoggingModule } from './request-logging';

export interface InfrastructureSettings extends StorageSettings, DatabaseSettings {
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  AUTH_TOKEN_SECRET: string;
  AUTH_TOKEN_TTL_SECONDS: number;
  AUTH_SESSION_CACHE_SECONDS: number;
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: number;
  SIGN_IN_MAX_FAILURES_PER_CLIENT: number;
  SIGN_IN_WINDOW_SECONDS: number;
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: RedisTarget['REDIS_CLUSTER_NODES'];
  QUEUE_PREFIX: string;
}

/** The Redis connections of sessions and sign-in limits, for the sign-in's other state (known addresses, TOTP steps). */
export const AUTH_REDIS = Symbol('AUTH_REDIS');

export interface AuthRedis {
  /** Fails at once while Redis is away (the request answers 503) instead of queueing the command. */
  commands: RedisConnection;
  subscriber: RedisConnection;
}

/** Started connected when Redis is there: a first request must not be refused while the connection is made. */
async function authRedis(target: RedisTarget, appName: string): Promise<AuthRedis> {
  const commands = redisConnection(target, 'fail-fast', 'redis sessions and sign-in limits');
  const subscriber = redisConnection(target, 'subscriber', 'redis revocations subscriber', `letterbox-${appName}-sessions`);
  await Promise.all([commands, subscriber].map((redis) => readyWithin(redis, 2000)));
  return { commands, subscriber };
}

/** Resolves when the connection is ready or after `ms`, whichever comes first: a Redis that is down does not stop the app. */
function readyWithin(redis: RedisConnection, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/**
 * What every Letterbox API needs, built once from its validated settings: the database, blob storage,
 * access tokens checked against users' sessions, sign-in attempt limits, request logs, `/health/*` (and the
 * checks of /health/ready, which the ops listener's `/metrics` port shares); with a read replica, its pool and the read routing that keeps users reading their own writes.
 * Connections close when the app shuts down.
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(AUTH_REDIS) private readonly redis: AuthRedis,
    private readonly blobs: BlobStore,
  ) {}

  static forApp(appName: string, settings: InfrastructureSettings): DynamicModule {
    const providers = [
      { provide: DATABASE, useFactory: () => databaseFromSettings(settings, `letterbox-${appName}`) },
      { provide: AUTH_REDIS, useFactory: () => authRedis(settings, appName) },
      {
        provide: READ_ROUTING,
        useFactory: (db: Database, redis: AuthRedis) => readRouting(db, redis.commands, settings.QUEUE_PREFIX),
        inject: [DATABASE, AUTH_REDIS],
      },
      { provide: BlobStore, useFactory: () => createBlobStore(settings) },
      { provide: AccessTokens, useFactory: () => new AccessTokens(settings.AUTH_TOKEN_SECRET, settings.AUTH_TOKEN_TTL_SECONDS) },
      {
        provide: CachedUserSessions,
        useFactory: (db: Database, redis: AuthRedis) =>
          new CachedUserSessions(db.sql, redis.commands, redis.subscriber, sessionRevocationsChannel(settings.QUEUE_PREFIX), {
            ttlMs: settings.AUTH_SESSION_CACHE_SECONDS * 1000,
            maxEntries: 100_000,
          }),
        inject: [DATABASE, AUTH_REDIS],
      },
      { provide: UserSessions, useExisting: CachedUserSessions },
      { provide: TokenAuthenticator, useClass: TokenAuthenticator },
      {
        provide: FailedAttemptLimiter,
        useFactory: (redis: AuthRedis) =>
          new FailedAttemptLimiter(redis.commands, settings.QUEUE_PREFIX, {
            perAccount: settings.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
            perClient: settings.SIGN_IN_MAX_FAILURES_PER_CLIENT,
            windowSeconds: settings.SIGN_IN_WINDOW_SECONDS,
          }),
        inject: [AUTH_REDIS],
      },
      {
        provide: READINESS_CHECKS,
        useFactory: (db: Database, redis: AuthRedis, blobs: BlobStore) => ({
          database: postgresCheck(db.sql),
          redis: redisCheck(redis.commands),
          storage: storageCheck(blobs),
        }),
        inject: [DATABASE, AUTH_REDIS, BlobStore],
      },
    ];
    // Without a replica there is nothing to record, and an interceptor runs every request through rxjs.
    const recordWrites = settings.DATABASE_READ_URL ? [{ provide: APP_INTERCEPTOR, useClass: RecordUserWritesInterceptor }] : [];
    return {
      module: InfrastructureModule,
      imports: [RequestLoggingModule],
      providers: [...providers, ...recordWrites],
      controllers: [HealthController],
      exports: providers.map((provider) => provider.provide),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.commands.disconnect();
    this.redis.subscriber.disconnect();
    this.blobs.close();
    await this.database.close();
  }
}
