import type { Pool } from 'pg';
import { z } from 'zod';
import type { AuditLog } from '@letterbox/audit';
import { inTransaction } from '@letterbox/db';
import { Suppressions, type SuppressionRow } from '@letterbox/sending';
import { recordAct, type AdminAct } from '../admin-act';
import { SuppressionNotFoundError } from '../admin-errors';

/** An address the office no longer sends to, and why: the bounce that put it there. */
export const suppressionSchema = z
  .object({
    id: z.int(),
    address: z.string(),
    reason: z.string(),
    sendId: z.int().nullable().describe('The send whose bounce put the address on the list.'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Suppression' });
export type SuppressionView = z.infer<typeof suppressionSchema>;
export const suppressionPageSchema = z.object({ suppressions: z.array(suppressionSchema), nextCursor: z.string().nullable() }).meta({ id: 'SuppressionPage' });
export type SuppressionPage = z.infer<typeof suppressionPageSchema>;

const view = (row: SuppressionRow): SuppressionView => ({
  id: Number(row.id),
  address: row.address,
  reason: row.reason,
  sendId: row.send_id === null ? null : Number(row.send_id),
  createdAt: row.created_at.toISOString(),
});

/** The office's suppression list as its administrators see it: newest first, a page at a time; removing an address is audited. */
export class OfficeSuppressions {
  private readonly suppressions: Suppressions;

  constructor(
    private readonly sql: Pool,
    private readonly audit: AuditLog,
  ) {
    this.suppressions = new Suppressions(sql);
  }

  /** `cursor`: the previous page's nextCursor. */
  async page(officeId: number, query: { limit: number; cursor?: string }): Promise<SuppressionPage> {
    const rows = await this.suppressions.page(officeId, query.cursor === undefined ? undefined : Number(query.cursor), query.limit + 1);
    const page = rows.slice(0, query.limit);
    return { suppressions: page.map(view), nextCursor: rows.length > query.limit ? page[page.length - 1].id : null };
  }

  /** Takes the address off the list: the office's mail goes to it again. */
  async remove(act: AdminAct, id: number): Promise<void> {
    await inTransaction(this.sql, async (client) => {
      const removed = await this.suppressions.remove(client, act.officeId, id);
      if (!removed) throw new SuppressionNotFoundError(id);
      await recordAct(this.audit, client, act, 'suppression.delete', removed.address, { suppressionId: id, reason: removed.reason });
    });
  }
}
