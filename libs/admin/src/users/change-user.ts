import type { Pool } from 'pg';
import type { SessionAnnouncer } from '@letterbox/accounts';
import type { AuditLog } from '@letterbox/audit';
import { hashPassword } from '@letterbox/auth';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';
import type { AdminUser } from './admin-user-view';
import { lockUserAmongAdmins, refuseLastAdmin } from './office-admin-lock';
import type { UserDirectory } from './user-directory';

export interface UserChanges {
  displayName?: string;
  role?: 'user' | 'admin';
  /** Null: back to the deployment's default. */
  quotaBytes?: number | null;
  state?: 'active' | 'disabled';
  /** A password reset: the user must choose their own at the next sign-in. */
  password?: string;
}

/**
 * An administrator's change to a user of the office: name, role, quota, state, or a password reset. Disabling,
 * a reset and a demotion end every token of the user at once, in every process. The office's last active
 * administrator is not demoted or disabled (LastAdminError).
 */
export class ChangeUser {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
    private readonly sessions: SessionAnnouncer,
    private readonly users: UserDirectory,
  ) {}

  async change(act: AdminAct, userId: number, changes: UserChanges): Promise<AdminUser> {
    const passwordHash = changes.password === undefined ? null : await hashPassword(changes.password);
    const { changed, tokensEnd } = await inTransaction(this.sql, async (client) => {
      const { user, activeAdminIds } = await lockUserAmongAdmins(client, act.officeId, userId);
      const demoted = user.role === 'admin' && changes.role === 'user';
      const disabled = user.state === 'active' && changes.state === 'disabled';
      if (user.role === 'admin' && user.state === 'active' && (demoted || disabled)) refuseLastAdmin(user, activeAdminIds);
      const tokensEnd = demoted || disabled || passwordHash !== null;
      await client.query({
        text: `UPDATE users SET display_name = coalesce($2, display_name), role = coalesce($3::user_role, role),
                      quota_bytes = CASE WHEN $4 THEN $5::bigint ELSE quota_bytes END, state = coalesce($6::user_state, state),
                      password_hash = coalesce($7, password_hash), password_change_required = password_change_required OR $7 IS NOT NULL,
                      token_version = token_version + CASE WHEN $8 THEN 1 ELSE 0 END
                WHERE id = $1`,
        values: [
          userId,
          changes.displayName ?? null,
          changes.role ?? null,
          changes.quotaBytes !== undefined,
          changes.quotaBytes ?? null,
          changes.state ?? null,
          passwordHash,
          tokensEnd,
        ],
      });
      const { password: _password, state, ...fields } = changes;
      if (Object.keys(fields).length > 0) await recordAct(this.audit, client, act, 'user.update', user.email, { userId, ...fields });
      if (state !== undefined && state !== user.state)
        await recordAct(this.audit, client, act, state === 'disabled' ? 'user.disable' : 'user.enable', user.email, { userId });
      if (passwordHash !== null) await recordAct(this.audit, client, act, 'user.password-reset', user.email, { userId });
      return { changed: await this.users.get(act.officeId, userId, client), tokensEnd };
    });
    if (tokensEnd) await this.sessions.announce(userId);
    return changed;
  }
}
