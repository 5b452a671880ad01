import type { AuditAction, AuditLog } from '@letterbox/audit';

/** Whom a security event is about: a user, or an address no user has (a failed sign-in), in the office of its domain if any. */
export interface EventSubject {
  userId: number | null;
  officeId: number | null;
  email: string;
}

/**
 * Security events of signing in and of a user's own account, into the audit log with the client address: the
 * user is both actor and target (a failed sign-in's actor is the address tried).
 */
export class SecurityEvents {
  constructor(private readonly audit: AuditLog) {}

  record(action: AuditAction, subject: EventSubject, clientAddress: string, details: Record<string, unknown> = {}): Promise<void> {
    return this.audit.record({
      officeId: subject.officeId,
      actor: { userId: subject.userId, address: subject.email },
      action,
      target: subject.userId === null ? subject.email : `user:${subject.userId}`,
      details,
      clientAddress,
    });
  }
}
