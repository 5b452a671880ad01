import type { Pool } from 'pg';
import type { SessionAnnouncer } from '@letterbox/accounts';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';
import { lockUserAmongAdmins, refuseLastAdmin } from './office-admin-lock';

/**
 * An administrator deletes a user of the office: the account and, by the foreign keys' cascade, its mailboxes,
 * mail rows, drafts, addresses and memberships. Its blobs, referred to by nothing any more, are the blob
 * collector's to remove (@letterbox/blob-references). Every token of the user ends with the account.
 */
export class RemoveUser {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
    private readonly sessions: SessionAnnouncer,
  ) {}

  async remove(act: AdminAct, userId: number): Promise<void> {
    await inTransaction(this.sql, async (client) => {
      const { user, activeAdminIds } = await lockUserAmongAdmins(client, act.officeId, userId);
      refuseLastAdmin(user, activeAdminIds);
      await client.query({ text: 'DELETE FROM users WHERE id = $1', values: [userId] });
      await recordAct(this.audit, client, act, 'user.delete', user.email, { userId });
    });
    await this.sessions.announce(userId);
  }
}
