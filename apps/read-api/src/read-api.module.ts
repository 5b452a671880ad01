import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerAuthGuard } from '@letterbox/auth';
import { InfrastructureModule } from '@letterbox/nest-infrastructure';
import { AuthModule } from './auth/auth.module';
import { AdminModule } from './admin/admin.module';
import { ContactsController } from './contacts/contacts.controller';
import { DevicesModule } from './devices/devices.module';
import { EventsModule } from './events/events.module';
import { MailServicesModule } from './mail-services.module';
import { MailboxesController } from './mailboxes/mailboxes.controller';
import { MailDownloadsController } from './mails/mail-downloads.controller';
import { MailsController } from './mails/mails.controller';
import { ReceiptConfirmController } from './receipts/receipt-confirm.controller';
import { SieveController } from './rules/sieve.controller';
import { IdentitiesController } from './settings/identities.controller';
import { VacationController } from './settings/vacation.controller';
import { SpamSendersController } from './spam/spam-senders.controller';
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
        AuthModule.forConfig(config),
        MailServicesModule.forConfig(config, events),
        DevicesModule,
        events,
        AdminModule.forConfig(config),
      ],
      controllers: [
        MailboxesController,
        MailsController,
        ThreadsController,
        ContactsController,
        SpamSendersController,
        SieveController,
        VacationController,
        IdentitiesController,
        MailDownloadsController,
        ReceiptConfirmController,
      ],
      providers: [{ provide: APP_GUARD, useClass: BearerAuthGuard }],
    };
  }
}
