import type { Pool, PoolClient } from 'pg';
import { namedStatement } from '@letterbox/db';
import type { AuditAction } from './audit-action';

/** Who acted: a signed-in user, or the operator's command line; a sign-in to an address no user has, with no user. */
export type AuditActor = { userId: number | null; address: string } | { cli: true };

export interface AuditEntry {
  /** The office it belongs to; null only for an operator's action outside any office. */
  officeId: number | null;
  actor: AuditActor;
  action: AuditAction;
  /** What it was done to, e.g. `user:42` or an address. */
  target?: string;
  details?: Record<string, unknown>;
  clientAddress?: string;
}

const RECORD = namedStatement(
  'audit-record',
  `INSERT INTO audit_events (office_id, actor_user_id, actor, action, target, details, client_address)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);

/**
 * Where admin actions and security events are written. Append-only: the table's trigger refuses any change.
 * An admin action passes its transaction's client, so the change and its record commit together.
 */
export class AuditLog {
  constructor(private readonly sql: Pool) {}

  async record(entry: AuditEntry, client: Pool | PoolClient = this.sql): Promise<void> {
    const actorUserId = 'userId' in entry.actor ? entry.actor.userId : null;
    const actor = 'userId' in entry.actor ? entry.actor.address : 'cli';
    await client.query({
      ...RECORD,
      values: [entry.officeId, actorUserId, actor, entry.action, entry.target ?? null, JSON.stringify(entry.details ?? {}), entry.clientAddress ?? null],
    });
  }
}
