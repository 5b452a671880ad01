/** What an audit event records: an administrator's action, or a security event of a user's sign-in. */
export const AUDIT_ACTIONS = [
  'office.create',
  'office.update',
  'domain.create',
  'user.create',
  'user.update',
  'user.disable',
  'user.enable',
  'user.password-reset',
  'user.delete',
  'alias.create',
  'alias.delete',
  'group.create',
  'group.update',
  'group.delete',
  'auth.sign-in',
  'auth.sign-in.failed',
  'auth.lockout',
  'auth.sign-out',
  'auth.password-change',
  'auth.totp.enable',
  'auth.totp.disable',
  'auth.recovery-code.use',
  'auth.token-revocation',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
