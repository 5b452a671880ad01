import type { PoolClient } from 'pg';
import type { AuditAction, AuditActor, AuditLog } from '@letterbox/audit';

/** Who administers which office, and from where: what every admin change records in the audit log. */
export interface AdminAct {
  officeId: number;
  actor: AuditActor;
  clientAddress?: string;
}

/** The operator's command line: the actor of what it does in an office. */
export const commandLineAct = (officeId: number): AdminAct => ({ officeId, actor: { cli: true } });

/** Records the change in the audit log within its transaction, so both commit or neither. */
export function recordAct(
  audit: AuditLog,
  client: PoolClient,
  act: AdminAct,
  action: AuditAction,
  target: string,
  details?: Record<string, unknown>,
): Promise<void> {
  return audit.record({ officeId: act.officeId, actor: act.actor, clientAddress: act.clientAddress, action, target, details }, client);
}
