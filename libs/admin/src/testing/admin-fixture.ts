import { randomUUID } from 'node:crypto';
import type { SessionAnnouncer } from '@letterbox/accounts';
import { AuditLog } from '@letterbox/audit';
import type { Database } from '@letterbox/db';
import { DkimKeyCipher } from '@letterbox/dkim';
import { TEST_DKIM_KEY_ENCRYPTION_KEY } from '@letterbox/dkim/testing';
import { commandLineAct, type AdminAct } from '../admin-act';
import { UserAliases } from '../aliases/user-aliases';
import { DomainDkimKeys } from '../dkim/domain-dkim-keys';
import { DomainDnsRecords } from '../dkim/domain-dns-records';
import { OfficeDomains } from '../domains/office-domains';
import { OfficeGroups } from '../groups/office-groups';
import { Offices } from '../office/offices';
import { AddUser } from '../users/add-user';
import { ChangeUser } from '../users/change-user';
import { RemoveUser } from '../users/remove-user';
import { UserDirectory } from '../users/user-directory';

export const TEST_DEFAULT_QUOTA = 2 * 1024 ** 3;
export const TEST_SPF_SENDERS = 'ip4:127.0.0.1';

/** Keeps whose sessions it was told to end, in order. */
export class RecordingAnnouncer implements SessionAnnouncer {
  readonly announced: number[] = [];

  async announce(userId: number): Promise<void> {
    this.announced.push(userId);
  }
}

/** The admin use cases over the test database, and an office of its own with a unique domain. */
export async function adminFixture(db: Database) {
  const audit = new AuditLog(db.sql);
  const sessions = new RecordingAnnouncer();
  const users = new UserDirectory(db.sql, TEST_DEFAULT_QUOTA);
  const offices = new Offices(db.sql, audit);
  const domain = `${randomUUID().slice(0, 12)}.test`;
  const office = await offices.create({ name: 'Admin test', domain });
  const act: AdminAct = { ...commandLineAct(office.id), clientAddress: '192.0.2.7' };
  const records = new DomainDnsRecords(db.sql, TEST_SPF_SENDERS);
  return {
    domain,
    office,
    act,
    sessions,
    offices,
    users,
    addUser: new AddUser(db.sql, audit, users),
    changeUser: new ChangeUser(db.sql, audit, sessions, users),
    removeUser: new RemoveUser(db.sql, audit, sessions),
    aliases: new UserAliases(db.sql, audit, users),
    records,
    domains: new OfficeDomains(db.sql, audit, records),
    dkimKeys: new DomainDkimKeys(db.sql, audit, DkimKeyCipher.fromSetting(TEST_DKIM_KEY_ENCRYPTION_KEY)),
    groups: new OfficeGroups(db.sql, audit),
  };
}

/** The office's audit actions, oldest first. */
export async function auditActions(db: Database, officeId: number): Promise<string[]> {
  const { rows } = await db.sql.query<{ action: string }>({ text: 'SELECT action FROM audit_events WHERE office_id = $1 ORDER BY id', values: [officeId] });
  return rows.map((row) => row.action);
}
