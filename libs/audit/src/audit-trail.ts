import type { Pool } from 'pg';
import { z } from 'zod';

export const auditEventSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    /** The actor's address when they were signed in, or `cli` for the operator's command line. */
    actor: z.string(),
    actorUserId: z.int().nullable(),
    action: z.string(),
    target: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    clientAddress: z.string().nullable(),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({ events: z.array(auditEventSchema), nextCursor: z.string().nullable() }).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;

export interface AuditQuery {
  limit: number;
  /** Where the previous page ended (its nextCursor): an event id. */
  cursor?: string;
  action?: string;
  actor?: string;
  since?: Date;
  until?: Date;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  actor_user_id: number | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  client_address: string | null;
}

/** An office's audit log, newest first, read in pages with filters; what is in it is never changed. */
export class AuditTrail {
  constructor(private readonly sql: Pool) {}

  async page(officeId: number, query: AuditQuery): Promise<AuditPage> {
    const { rows } = await this.sql.query<AuditRow>({
      text: `SELECT id, at, actor, actor_user_id, action, target, details, client_address FROM audit_events
              WHERE office_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::text IS NULL OR action = $3) AND ($4::text IS NULL OR actor = $4)
                AND ($5::timestamptz IS NULL OR at >= $5) AND ($6::timestamptz IS NULL OR at < $6)
              ORDER BY id DESC LIMIT $7`,
      values: [
        officeId,
        query.cursor ?? null,
        query.action ?? null,
        query.actor?.toLowerCase() ?? null,
        query.since ?? null,
        query.until ?? null,
        query.limit + 1,
      ],
    });
    const page = rows.slice(0, query.limit);
    return {
      events: page.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        actorUserId: row.actor_user_id,
        action: row.action,
        target: row.target,
        details: row.details,
        clientAddress: row.client_address,
      })),
      nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
    };
  }
}
