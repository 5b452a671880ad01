import { z } from 'zod';

export const adminUserSchema = z
  .object({
    id: z.int(),
    email: z.string(),
    displayName: z.string(),
    role: z.enum(['user', 'admin']),
    state: z.enum(['active', 'disabled']),
    /** The quota that applies: the user's own, or the deployment's default. */
    quotaBytes: z.int(),
    /** Whether the user has a quota of their own rather than the default. */
    customQuota: z.boolean(),
    usedBytes: z.int(),
    aliases: z.array(z.string()),
    totpEnabled: z.boolean(),
    passwordChangeRequired: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserPageSchema = z.object({ users: z.array(adminUserSchema), nextCursor: z.string().nullable() }).meta({ id: 'AdminUserPage' });
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

/** A user as an administrator sees them, aliases included, in one statement. */
export const ADMIN_USER_SELECT = `
  SELECT u.id, u.email, u.display_name, u.role, u.state, u.quota_bytes, u.used_bytes, u.totp_enabled_at IS NOT NULL AS totp_enabled,
         u.password_change_required, u.created_at,
         ARRAY(SELECT a.address FROM addresses a WHERE a.user_id = u.id AND a.kind = 'alias' ORDER BY a.address) AS aliases
    FROM users u`;

export interface AdminUserRow {
  id: number;
  email: string;
  display_name: string;
  role: 'user' | 'admin';
  state: 'active' | 'disabled';
  quota_bytes: string | null;
  used_bytes: string;
  totp_enabled: boolean;
  password_change_required: boolean;
  created_at: Date;
  aliases: string[];
}

export function mapAdminUserRow(row: AdminUserRow, defaultQuotaBytes: number): AdminUser {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    state: row.state,
    quotaBytes: row.quota_bytes === null ? defaultQuotaBytes : Number(row.quota_bytes),
    customQuota: row.quota_bytes !== null,
    usedBytes: Number(row.used_bytes),
    aliases: row.aliases,
    totpEnabled: row.totp_enabled,
    passwordChangeRequired: row.password_change_required,
    createdAt: row.created_at.toISOString(),
  };
}
