import { namedStatement, type Database } from '@letterbox/db';
import type { UserLocale } from './user-locale';

/** What `GET /v2/auth/me` answers: who the user is, what they must do, their addresses and their storage. */
export interface AccountProfile {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
  role: 'user' | 'admin';
  /** The language they chose; null until they choose (the webmail follows the browser's). */
  locale: UserLocale | null;
  passwordChangeRequired: boolean;
  totpEnabled: boolean;
  /** The office requires two-factor sign-in and the user has not set it up: other routes answer 403 until they do. */
  totpSetupRequired: boolean;
  /** The primary address first, then the aliases, alphabetically. */
  addresses: string[];
  usage: { usedBytes: number; quotaBytes: number };
}

const PROFILE = namedStatement(
  'users-account-profile',
  `SELECT u.id, u.office_id, u.email, u.display_name, u.role, u.locale, u.password_change_required, u.totp_enabled_at IS NOT NULL AS totp_enabled,
          o.require_totp AND u.totp_enabled_at IS NULL AS totp_setup_required, u.used_bytes, u.quota_bytes,
          ARRAY(SELECT a.address FROM addresses a WHERE a.user_id = u.id ORDER BY a.kind <> 'primary', a.address) AS addresses
   FROM users u JOIN offices o ON o.id = u.office_id WHERE u.id = $1`,
);

interface ProfileRow {
  id: number;
  office_id: number;
  email: string;
  display_name: string;
  role: 'user' | 'admin';
  locale: UserLocale | null;
  password_change_required: boolean;
  totp_enabled: boolean;
  totp_setup_required: boolean;
  used_bytes: string;
  quota_bytes: string | null;
  addresses: string[];
}

/** The user's profile in one query; undefined when the account is gone. A user without a quota of their own has `defaultQuotaBytes`. */
export async function accountProfile(db: Database, userId: number, defaultQuotaBytes: number): Promise<AccountProfile | undefined> {
  const { rows } = await db.sql.query<ProfileRow>({ ...PROFILE, values: [userId] });
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    officeId: row.office_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    locale: row.locale,
    passwordChangeRequired: row.password_change_required,
    totpEnabled: row.totp_enabled,
    totpSetupRequired: row.totp_setup_required,
    addresses: row.addresses,
    usage: { usedBytes: Number(row.used_bytes), quotaBytes: row.quota_bytes === null ? defaultQuotaBytes : Number(row.quota_bytes) },
  };
}
