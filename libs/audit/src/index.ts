export { AUDIT_ACTIONS, type AuditAction } from './audit-action';
export { AuditLog, type AuditActor, type AuditEntry } from './audit-log';
export { AuditTrail, auditEventSchema, auditPageSchema, type AuditEvent, type AuditPage, type AuditQuery } from './audit-trail';
