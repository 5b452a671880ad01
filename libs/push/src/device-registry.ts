import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

export const DEVICE_PLATFORMS = ['web', 'android', 'ios'] as const;

export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

export interface DeviceView {
  token: string;
  platform: DevicePlatform;
  createdAt: string;
  lastSeenAt: string;
}

export interface Registration {
  device: DeviceView;
  /** False when the token was already this user's device: registering it again only refreshed it. */
  isNew: boolean;
}

interface DeviceRow {
  token: string;
  platform: DevicePlatform;
  created_at: Date;
  last_seen_at: Date;
}

const viewOf = (row: DeviceRow): DeviceView => ({
  token: row.token,
  platform: row.platform,
  createdAt: row.created_at.toISOString(),
  lastSeenAt: row.last_seen_at.toISOString(),
});

/**
 * Devices one user keeps: each new mail is pushed to every one of them, so an account must
 * not grow an unbounded fan-out. Past it, the devices seen least recently are forgotten
 * (an app reinstalled or a browser cleared leaves its old token behind).
 */
export const MAX_DEVICES_PER_USER = 50;

/** The token is another user's, and the registration did not come from the installation that registered it. */
export class DeviceTokenTakenError extends Error {
  constructor() {
    super('token: registered by another account; only the installation that registered it (with its installationSecret) can move it');
  }
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

// `previous` reads the row as it was before this statement: whose the token was, if anyone's.
const REGISTER = namedStatement(
  'devices-register',
  `WITH previous AS (SELECT user_id FROM devices WHERE token = $2)
   INSERT INTO devices AS device (user_id, token, platform, installation_hash) VALUES ($1, $2, COALESCE($3, 'web'), $4)
   ON CONFLICT (token) DO UPDATE SET
     user_id = EXCLUDED.user_id,
     platform = COALESCE($3, device.platform),
     installation_hash = COALESCE(EXCLUDED.installation_hash, device.installation_hash),
     last_seen_at = now(),
     created_at = CASE WHEN device.user_id = EXCLUDED.user_id THEN device.created_at ELSE now() END
   WHERE device.user_id = EXCLUDED.user_id OR device.installation_hash = EXCLUDED.installation_hash
   RETURNING device.token, device.platform, device.created_at, device.last_seen_at, (SELECT user_id FROM previous) AS previous_user_id`,
);
const FORGET_BEYOND_LIMIT = namedStatement(
  'devices-forget-beyond-limit',
  'DELETE FROM devices WHERE id IN (SELECT id FROM devices WHERE user_id = $1 ORDER BY last_seen_at DESC, id DESC OFFSET $2)',
);
const REMOVE = namedStatement('devices-remove', 'DELETE FROM devices WHERE user_id = $1 AND token = $2');
const LIST = namedStatement(
  'devices-list',
  'SELECT token, platform, created_at, last_seen_at FROM devices WHERE user_id = $1 ORDER BY created_at DESC, id DESC',
);
const TOKENS = namedStatement('devices-tokens', 'SELECT token FROM devices WHERE user_id = $1 ORDER BY id');
const TOKENS_AMONG = namedStatement('devices-tokens-among', 'SELECT token FROM devices WHERE user_id = $1 AND token = ANY($2::text[]) ORDER BY id');
const PRUNE = namedStatement('devices-prune', 'DELETE FROM devices WHERE token = ANY($1::text[])');

/**
 * The push tokens of users' devices. A token names one app install, so it belongs to whoever
 * signed in on it last, but only when the installation proves it is the same one: it registers
 * with a secret only it holds (kept as a hash), and a token moves to another user only with that
 * secret. Without it, anyone who learnt a token could take a user's notifications away.
 */
export class DeviceRegistry {
  constructor(
    private readonly sql: Pool,
    private readonly maxPerUser = MAX_DEVICES_PER_USER,
  ) {}

  /**
   * Adds the token to the user's devices, or refreshes it; a platform not given keeps the one known (web for a
   * new token). Another user's token moves only with the installation secret it was registered with.
   */
  async register(userId: number, token: string, platform?: DevicePlatform, installationSecret?: string): Promise<Registration> {
    const { rows } = await this.sql.query<DeviceRow & { previous_user_id: number | null }>({
      ...REGISTER,
      values: [userId, token, platform ?? null, installationSecret === undefined ? null : hashOf(installationSecret)],
    });
    const [row] = rows;
    if (!row) throw new DeviceTokenTakenError();
    const isNew = row.previous_user_id !== userId;
    if (isNew) await this.forgetBeyondLimit(userId);
    return { device: viewOf(row), isNew };
  }

  private async forgetBeyondLimit(userId: number): Promise<void> {
    await this.sql.query({ ...FORGET_BEYOND_LIMIT, values: [userId, this.maxPerUser] });
  }

  /** Removes one of the user's devices; false when the token is not theirs (or not known at all). */
  async remove(userId: number, token: string): Promise<boolean> {
    const { rowCount } = await this.sql.query({ ...REMOVE, values: [userId, token] });
    return rowCount === 1;
  }

  /** The user's devices, the latest registered first. */
  async list(userId: number): Promise<DeviceView[]> {
    const { rows } = await this.sql.query<DeviceRow>({ ...LIST, values: [userId] });
    return rows.map(viewOf);
  }

  /** The user's tokens; with `among`, only those of them still the user's, so a retry skips devices removed since. */
  async tokensOf(userId: number, among?: string[]): Promise<string[]> {
    const { rows } = await this.sql.query<{ token: string }>(
      among === undefined ? { ...TOKENS, values: [userId] } : { ...TOKENS_AMONG, values: [userId, among] },
    );
    return rows.map((row) => row.token);
  }

  /** Forgets tokens FCM no longer delivers to, whoever's they are now; answers how many were removed. */
  async prune(tokens: string[]): Promise<number> {
    if (tokens.length === 0) return 0;
    const { rowCount } = await this.sql.query({ ...PRUNE, values: [tokens] });
    return rowCount ?? 0;
  }
}
