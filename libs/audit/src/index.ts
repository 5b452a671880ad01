export { AUDIT_ACTIONS, type AuditAction } from './audit-action';
export { AuditLog, type AuditActor, type AuditEntry } from './audit-log';
