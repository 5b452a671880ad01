import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Authentication, CachedUserSessions } from '@letterbox/accounts';
import { AccessTokens, BearerAuthGuard, FailedAttemptLimiter } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { DATABASE, InfrastructureModule } from '@letterbox/nest-infrastructure';
import { AdminModule } from './admin/admin.module';
import { AuthController } from './auth/auth.controller';
import { ContactsController } from './contacts/contacts.controller';
import { DevicesModule } from './devices/devices.module';
import { EventsModule } from './events/events.module';
import { MailServicesModule } from './mail-services.module';
import { MailboxesController } from './mailboxes/mailboxes.controller';
import { MailDownloadsController } from './mails/mail-downloads.controller';
import { MailsController } from './mails/mails.controller';
import { ReceiptConfirmController } from './receipts/receipt-confirm.controller';
import { ThreadsController } from './threads/threads.controller';
import type { ReadApiConfig } from './read-api.config';

@Module({})
export class ReadApiModule {
  static forConfig(config: ReadApiConfig): DynamicModule {
    const events = EventsModule.forConfig(config);
    return {
      module: ReadApiModule,
      imports: [
        InfrastructureModule.forApp('read-api', config),
        MailServicesModule.forConfig(config, events),
        DevicesModule,
        events,
        AdminModule.forConfig(config),
      ],
      controllers: [
        AuthController,
        MailboxesController,
        MailsController,
        ThreadsController,
        ContactsController,
        MailDownloadsController,
        ReceiptConfirmController,
      ],
      providers: [
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        {
          provide: Authentication,
          useFactory: (db: Database, tokens: AccessTokens, attempts: FailedAttemptLimiter, sessions: CachedUserSessions) =>
            new Authentication(db, tokens, attempts, sessions),
          inject: [DATABASE, AccessTokens, FailedAttemptLimiter, CachedUserSessions],
        },
      ],
    };
  }
}
