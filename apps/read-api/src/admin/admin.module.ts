import { Module, type DynamicModule } from '@nestjs/common';
import { CachedUserSessions } from '@letterbox/accounts';
import {
  AddUser,
  ChangeUser,
  DomainDkimKeys,
  DomainDnsRecords,
  OfficeAdmins,
  OfficeDomains,
  OfficeGroups,
  OfficeSettings,
  OfficeSuppressions,
  RemoveUser,
  UserAliases,
  UserDirectory,
} from '@letterbox/admin';
import { AuditLog, AuditTrail } from '@letterbox/audit';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher } from '@letterbox/dkim';
import { DATABASE } from '@letterbox/nest-infrastructure';
import type { ReadApiConfig } from '../read-api.config';
import { AdminGroupsController } from './admin-groups.controller';
import { AdminOfficeController } from './admin-office.controller';
import { AdminSuppressionsController } from './admin-suppressions.controller';
import { AdminUsersController } from './admin-users.controller';
import { OfficeAdminGuard } from './office-admin.guard';

/** The office administrators' API (/v2/admin): the admin use cases on the primary, sessions ended through the shared revocations. */
@Module({})
export class AdminModule {
  static forConfig(config: ReadApiConfig): DynamicModule {
    const onPrimary = <T>(make: (db: Database) => T) => ({ useFactory: make, inject: [DATABASE] });
    return {
      module: AdminModule,
      controllers: [AdminUsersController, AdminGroupsController, AdminOfficeController, AdminSuppressionsController],
      providers: [
        { provide: AuditLog, ...onPrimary((db) => new AuditLog(db.sql)) },
        { provide: AuditTrail, ...onPrimary((db) => new AuditTrail(db.sql)) },
        { provide: OfficeAdmins, ...onPrimary((db) => new OfficeAdmins(db.sql)) },
        { provide: UserDirectory, ...onPrimary((db) => new UserDirectory(db.sql, config.USER_QUOTA_BYTES)) },
        {
          provide: AddUser,
          useFactory: (db: Database, audit: AuditLog, users: UserDirectory) => new AddUser(db.sql, audit, users),
          inject: [DATABASE, AuditLog, UserDirectory],
        },
        {
          provide: ChangeUser,
          useFactory: (db: Database, audit: AuditLog, sessions: CachedUserSessions, users: UserDirectory) => new ChangeUser(db.sql, audit, sessions, users),
          inject: [DATABASE, AuditLog, CachedUserSessions, UserDirectory],
        },
        {
          provide: RemoveUser,
          useFactory: (db: Database, audit: AuditLog, sessions: CachedUserSessions) => new RemoveUser(db.sql, audit, sessions),
          inject: [DATABASE, AuditLog, CachedUserSessions],
        },
        {
          provide: UserAliases,
          useFactory: (db: Database, audit: AuditLog, users: UserDirectory) => new UserAliases(db.sql, audit, users),
          inject: [DATABASE, AuditLog, UserDirectory],
        },
        { provide: DomainDnsRecords, ...onPrimary((db) => new DomainDnsRecords(db.sql, config.SPF_SENDERS)) },
        {
          provide: OfficeDomains,
          useFactory: (db: Database, audit: AuditLog, records: DomainDnsRecords) => new OfficeDomains(db.sql, audit, records),
          inject: [DATABASE, AuditLog, DomainDnsRecords],
        },
        {
          provide: DomainDkimKeys,
          useFactory: (db: Database, audit: AuditLog) => new DomainDkimKeys(db.sql, audit, DkimKeyCipher.fromSetting(config.DKIM_KEY_ENCRYPTION_KEY)),
          inject: [DATABASE, AuditLog],
        },
        { provide: OfficeGroups, useFactory: (db: Database, audit: AuditLog) => new OfficeGroups(db.sql, audit), inject: [DATABASE, AuditLog] },
        { provide: OfficeSettings, useFactory: (db: Database, audit: AuditLog) => new OfficeSettings(db.sql, audit), inject: [DATABASE, AuditLog] },
        { provide: OfficeSuppressions, useFactory: (db: Database, audit: AuditLog) => new OfficeSuppressions(db.sql, audit), inject: [DATABASE, AuditLog] },
        OfficeAdminGuard,
      ],
    };
  }
}
