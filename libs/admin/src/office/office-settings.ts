import type { Pool } from 'pg';
import { z } from 'zod';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { recordAct, type AdminAct } from '../admin-act';

export const officeSettingsSchema = z.object({ id: z.int(), name: z.string(), domain: z.string(), requireTotp: z.boolean() }).meta({ id: 'OfficeSettings' });
export type OfficeSettingsView = z.infer<typeof officeSettingsSchema>;

const SELECT = 'SELECT id, name, domain, require_totp AS "requireTotp" FROM offices';

/** What an office decides for all its users: whether everyone must sign in with a second factor. */
export class OfficeSettings {
  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
  ) {}

  async get(officeId: number): Promise<OfficeSettingsView> {
    const { rows } = await this.sql.query<OfficeSettingsView>({ text: `${SELECT} WHERE id = $1`, values: [officeId] });
    return rows[0];
  }

  async change(act: AdminAct, changes: { requireTotp: boolean }): Promise<OfficeSettingsView> {
    return inTransaction(this.sql, async (client) => {
      const { rows } = await client.query<OfficeSettingsView>({
        text: `UPDATE offices SET require_totp = $2 WHERE id = $1 RETURNING id, name, domain, require_totp AS "requireTotp"`,
        values: [act.officeId, changes.requireTotp],
      });
      await recordAct(this.audit, client, act, 'office.update', rows[0].domain, changes);
      return rows[0];
    });
  }
}
