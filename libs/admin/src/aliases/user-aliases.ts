import type { Pool } from 'pg';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';
import { AliasNotFoundError, UserNotFoundError } from '../admin-errors';
import { addressTaken, normalizedAddress, requireOwnedDomain } from '../office-addresses';
import type { AdminUser } from '../users/admin-user-view';
import type { UserDirectory } from '../users/user-directory';

/** A user's extra addresses in the office's domains: mail to them is theirs, and they may send from them. */
export class UserAliases {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
    private readonly users: UserDirectory,
  ) {}

  async add(act: AdminAct, userId: number, alias: string): Promise<AdminUser> {
    const address = normalizedAddress(alias);
    return inTransaction(this.sql, async (client) => {
      const { rowCount } = await client.query({ text: 'SELECT 1 FROM users WHERE id = $1 AND office_id = $2 FOR SHARE', values: [userId, act.officeId] });
      if (rowCount === 0) throw new UserNotFoundError(userId);
      await requireOwnedDomain(client, act.officeId, address);
      await client
        .query({ text: `INSERT INTO addresses (address, office_id, kind, user_id) VALUES ($1, $2, 'alias', $3)`, values: [address, act.officeId, userId] })
        .catch(addressTaken(address));
      await recordAct(this.audit, client, act, 'alias.create', address, { userId });
      return this.users.get(act.officeId, userId, client);
    });
  }

  async remove(act: AdminAct, userId: number, alias: string): Promise<void> {
    const address = normalizedAddress(alias);
    await inTransaction(this.sql, async (client) => {
      const { rowCount } = await client.query({
        text: `DELETE FROM addresses WHERE address = $1 AND user_id = $2 AND office_id = $3 AND kind = 'alias'`,
        values: [address, userId, act.officeId],
      });
      if (rowCount === 0) throw new AliasNotFoundError(address);
      await recordAct(this.audit, client, act, 'alias.delete', address, { userId });
    });
  }
}
