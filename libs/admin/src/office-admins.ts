import type { Pool } from 'pg';
import type { AdminAct } from './admin-act';
import { NotAnAdminError } from './admin-errors';

/** Who may administer an office: its active users of role `admin`, asked of the database on each admin request. */
export class OfficeAdmins {
  constructor(private readonly sql: Pool) {}

  /** The act of the signed-in user as their office's administrator; anyone else is refused (403 in the API). */
  async actOf(userId: number, officeId: number, clientAddress: string): Promise<AdminAct> {
    const { rows } = await this.sql.query<{ email: string }>({
      text: `SELECT email FROM users WHERE id = $1 AND office_id = $2 AND role = 'admin' AND state = 'active'`,
      values: [userId, officeId],
    });
    if (!rows[0]) throw new NotAnAdminError();
    return { officeId, actor: { userId, address: rows[0].email }, clientAddress };
  }
}
