import type { Pool } from 'pg';
import { inTransaction, namedStatement } from '@letterbox/db';

const SECOND_FACTOR = namedStatement('users-second-factor', 'SELECT totp_secret, totp_enabled_at IS NOT NULL AS enabled FROM users WHERE id = $1');
const START = namedStatement('users-totp-start', 'UPDATE users SET totp_secret = $2 WHERE id = $1 AND totp_enabled_at IS NULL');
const ENABLE = namedStatement('users-totp-enable', 'UPDATE users SET totp_enabled_at = now() WHERE id = $1 AND totp_secret = $2 AND totp_enabled_at IS NULL');
const DISABLE = namedStatement('users-totp-disable', 'UPDATE users SET totp_secret = NULL, totp_enabled_at = NULL WHERE id = $1');
const FORGET_CODES = namedStatement('totp-recovery-codes-forget', 'DELETE FROM totp_recovery_codes WHERE user_id = $1');
const ADD_CODES = namedStatement(
  'totp-recovery-codes-add',
  'INSERT INTO totp_recovery_codes (user_id, code_hash) SELECT $1, hash FROM unnest($2::text[]) AS hash',
);
const USE_CODE = namedStatement('totp-recovery-codes-use', 'DELETE FROM totp_recovery_codes WHERE user_id = $1 AND code_hash = $2');

/** A user's TOTP secret: `enabled` once confirmed; until then it is only being set up. */
export interface SecondFactor {
  secret: string | null;
  enabled: boolean;
}

/** The SQL of users' TOTP columns and their recovery codes (stored as SHA-256 hashes). */
export class TwoFactorStore {
  constructor(private readonly sql: Pool) {}

  async of(userId: number): Promise<SecondFactor | undefined> {
    const { rows } = await this.sql.query<{ totp_secret: string | null; enabled: boolean }>({ ...SECOND_FACTOR, values: [userId] });
    return rows[0] && { secret: rows[0].totp_secret, enabled: rows[0].enabled };
  }

  /** Keeps the secret being set up; false when TOTP is on already (or the user is gone). */
  async start(userId: number, secret: string): Promise<boolean> {
    return (await this.sql.query({ ...START, values: [userId, secret] })).rowCount === 1;
  }

  /** Turns on the secret set up, with these recovery codes in place of any before; false when it is no longer the one set up. */
  enable(userId: number, secret: string, codeHashes: string[]): Promise<boolean> {
    return inTransaction(this.sql, async (client) => {
      if ((await client.query({ ...ENABLE, values: [userId, secret] })).rowCount !== 1) return false;
      await client.query({ ...FORGET_CODES, values: [userId] });
      await client.query({ ...ADD_CODES, values: [userId, codeHashes] });
      return true;
    });
  }

  disable(userId: number): Promise<void> {
    return inTransaction(this.sql, async (client) => {
      await client.query({ ...DISABLE, values: [userId] });
      await client.query({ ...FORGET_CODES, values: [userId] });
    });
  }

  /** Uses up the recovery code of that hash: true when the user had it (it is gone now). */
  async useRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
    return (await this.sql.query({ ...USE_CODE, values: [userId, codeHash] })).rowCount === 1;
  }
}
