import { Module, type DynamicModule } from '@nestjs/common';
import {
  AppPasswords,
  AppPasswordStore,
  Authentication,
  CachedUserSessions,
  ProfileSettings,
  SecondFactorCheck,
  SecurityEvents,
  TwoFactorSetup,
  TwoFactorStore,
} from '@letterbox/accounts';
import { AuditLog } from '@letterbox/audit';
import { AccessTokens, FailedAttemptLimiter, KnownClientAddresses, TimeBasedCodes } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { AUTH_REDIS, DATABASE, type AuthRedis } from '@letterbox/nest-infrastructure';
import type { ReadApiConfig } from '../read-api.config';
import { AppPasswordsController } from './app-passwords.controller';
import { AuthController } from './auth.controller';

/** What signing in with a second factor shares with setting one up. */
interface SecondFactorParts {
  store: TwoFactorStore;
  codes: TimeBasedCodes;
  /** Wrong codes, counted apart from wrong passwords: a lock of passwords must not stop the code that passes it. */
  codeAttempts: FailedAttemptLimiter;
  events: SecurityEvents;
}

const SECOND_FACTOR_PARTS = Symbol('SECOND_FACTOR_PARTS');

/** Signing in and out, passwords, two-factor sign-in, app passwords, the user's own settings: /v2/auth. */
@Module({})
export class AuthModule {
  static forConfig(config: ReadApiConfig): DynamicModule {
    return {
      module: AuthModule,
      controllers: [AuthController, AppPasswordsController],
      providers: [
        {
          provide: SECOND_FACTOR_PARTS,
          useFactory: (db: Database, redis: AuthRedis): SecondFactorParts => ({
            store: new TwoFactorStore(db.sql),
            codes: new TimeBasedCodes(redis.commands, config.QUEUE_PREFIX, 'Letterbox'),
            codeAttempts: new FailedAttemptLimiter(redis.commands, `${config.QUEUE_PREFIX}:totp`, {
              perAccount: config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
              perClient: config.SIGN_IN_MAX_FAILURES_PER_CLIENT,
              windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
            }),
            events: new SecurityEvents(new AuditLog(db.sql)),
          }),
          inject: [DATABASE, AUTH_REDIS],
        },
        {
          provide: Authentication,
          useFactory: (
            db: Database,
            redis: AuthRedis,
            tokens: AccessTokens,
            passwordAttempts: FailedAttemptLimiter,
            sessions: CachedUserSessions,
            parts: SecondFactorParts,
          ) =>
            new Authentication({
              db,
              tokens,
              passwordAttempts,
              knownClients: new KnownClientAddresses(redis.commands, config.QUEUE_PREFIX),
              secondFactor: new SecondFactorCheck(parts.store, parts.codes, parts.codeAttempts),
              sessions,
              events: parts.events,
              defaultQuotaBytes: config.USER_QUOTA_BYTES,
            }),
          inject: [DATABASE, AUTH_REDIS, AccessTokens, FailedAttemptLimiter, CachedUserSessions, SECOND_FACTOR_PARTS],
        },
        {
          provide: TwoFactorSetup,
          useFactory: (db: Database, passwordAttempts: FailedAttemptLimiter, sessions: CachedUserSessions, parts: SecondFactorParts) =>
            new TwoFactorSetup({ db, ...parts, passwordAttempts, sessions }),
          inject: [DATABASE, FailedAttemptLimiter, CachedUserSessions, SECOND_FACTOR_PARTS],
        },
        {
          provide: AppPasswords,
          useFactory: (db: Database, parts: SecondFactorParts) => new AppPasswords(db, new AppPasswordStore(db.sql), parts.events),
          inject: [DATABASE, SECOND_FACTOR_PARTS],
        },
        { provide: ProfileSettings, useFactory: (db: Database) => new ProfileSettings(db, config.USER_QUOTA_BYTES), inject: [DATABASE] },
      ],
    };
  }
}
