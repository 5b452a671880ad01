import { hashPassword, verifyPassword } from '@letterbox/auth';
import { inTransaction, type Database } from '@letterbox/db';
import { insertOffice, insertUser, type CreatedUser, type UserRow } from './account-rows';

/** An office with its first domain. */
export async function createOffice(db: Database, office: { name: string; domain: string }): Promise<{ id: number }> {
  return inTransaction(db.sql, (client) => insertOffice(client, office));
}

export interface NewUser extends Omit<UserRow, 'passwordHash'> {
  password: string;
}

/** A user with the system mailboxes, created together. The password is hashed first, outside the transaction. */
export async function createUser(db: Database, user: NewUser): Promise<CreatedUser> {
  const { password, ...row } = user;
  const passwordHash = await hashPassword(password);
  return inTransaction(db.sql, (client) => insertUser(client, { ...row, passwordHash }));
}

/** Whether the signed-in user typed their password again (before unlocking a mailbox, say). */
export async function confirmPassword(db: Database, userId: number, password: string): Promise<boolean> {
  const { rows } = await db.sql.query<{ password_hash: string }>({ text: 'SELECT password_hash FROM users WHERE id = $1', values: [userId] });
  return rows.length > 0 && verifyPassword(rows[0].password_hash, password);
}

/** Told when a user's tokens end, so every process stops trusting what it remembers of them. */
export interface SessionAnnouncer {
  announce(userId: number): Promise<void>;
}

/** A new password, which ends every token issued before it, in every process; the user chose it, so no change is required any longer. */
export async function changePassword(
  db: Database,
  sessions: SessionAnnouncer,
  userId: number,
  newPassword: string,
): Promise<{ officeId: number; tokenVersion: number }> {
  const passwordHash = await hashPassword(newPassword);
  const { rows } = await db.sql.query<{ office_id: number; token_version: number }>({
    // Its app passwords go with the old password (as at Google): a password changed because it leaked ends every way in.
    text: `WITH revoked AS (DELETE FROM app_passwords WHERE user_id = $1)
           UPDATE users SET password_hash = $2, token_version = token_version + 1, password_change_required = false
           WHERE id = $1 RETURNING office_id, token_version`,
    values: [userId, passwordHash],
  });
  if (!rows[0]) throw new Error(`user ${userId} does not exist`);
  await sessions.announce(userId);
  return { officeId: rows[0].office_id, tokenVersion: rows[0].token_version };
}

/** Removes the user with everything of theirs; their tokens end with the account, in every process. */
export async function removeUser(db: Database, sessions: SessionAnnouncer, userId: number): Promise<boolean> {
  const { rowCount } = await db.sql.query({ text: 'DELETE FROM users WHERE id = $1', values: [userId] });
  await sessions.announce(userId);
  return rowCount === 1;
}
