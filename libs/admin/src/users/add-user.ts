import type { Pool } from 'pg';
import { insertUser } from '@letterbox/accounts';
import type { AuditLog } from '@letterbox/audit';
import { hashPassword } from '@letterbox/auth';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';
import { addressTaken, normalizedAddress, requireOwnedDomain } from '../office-addresses';
import type { AdminUser } from './admin-user-view';
import type { UserDirectory } from './user-directory';

export interface NewOfficeUser {
  email: string;
  displayName: string;
  /** The initial password, which the user must change at first sign-in. */
  password: string;
  role?: 'user' | 'admin';
  /** Null or absent: the deployment's default quota. */
  quotaBytes?: number | null;
}

/**
 * An administrator (or the operator's command line) adds a user to the office: an address in one of its domains
 * that no one has yet, with system mailboxes, an initial password the user must change, and an audit record.
 */
export class AddUser {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
    private readonly users: UserDirectory,
  ) {}

  async add(act: AdminAct, user: NewOfficeUser): Promise<AdminUser> {
    const email = normalizedAddress(user.email);
    const passwordHash = await hashPassword(user.password);
    return inTransaction(this.sql, async (client) => {
      await requireOwnedDomain(client, act.officeId, email);
      const created = await insertUser(client, {
        officeId: act.officeId,
        email,
        displayName: user.displayName,
        passwordHash,
        role: user.role ?? 'user',
        passwordChangeRequired: true,
        quotaBytes: user.quotaBytes ?? null,
      }).catch(addressTaken(email));
      await recordAct(this.audit, client, act, 'user.create', email, { userId: created.id, role: user.role ?? 'user', quotaBytes: user.quotaBytes ?? null });
      return this.users.get(act.officeId, created.id, client);
    });
  }
}
