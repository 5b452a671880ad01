import { hashPassword, verifyPassword } from '@letterbox/auth';
import type { Database, MailboxRole } from '@letterbox/db';

/** Every user has these, named as a webmail shows them. */
export const SYSTEM_MAILBOXES: ReadonlyArray<{ role: MailboxRole; name: string }> = [
  { role: 'inbox', name: 'Inbox' },
  { role: 'sent', name: 'Sent' },
  { role: 'drafts', name: 'Drafts' },
  { role: 'spam', name: 'Spam' },
  { role: 'trash', name: 'Trash' },
];

/** An office with its first domain. */
export async function createOffice(db: Database, office: { name: string; domain: string }): Promise<{ id: number }> {
  const domain = office.domain.toLowerCase();
  return db.prisma.office.create({ data: { name: office.name, domain, domains: { create: { name: domain } } }, select: { id: true } });
}

export interface NewUser {
  officeId: number;
  email: string;
  displayName: string;
  password: string;
}

export interface CreatedUser {
  id: number;
  officeId: number;
  email: string;
  /** Mailbox id by role. */
  mailboxes: Record<MailboxRole, number>;
}

/** A user with the system mailboxes, created together. The password is hashed first, outside the transaction. */
export async function createUser(db: Database, user: NewUser): Promise<CreatedUser> {
  const passwordHash = await hashPassword(user.password);
  const created = await db.prisma.user.create({
    data: {
      officeId: user.officeId,
      email: user.email.toLowerCase(),
      displayName: user.displayName,
      passwordHash,
      addresses: { create: { address: user.email.toLowerCase(), officeId: user.officeId, kind: 'primary' } },
      mailboxes: { create: SYSTEM_MAILBOXES.map((mailbox) => ({ ...mailbox })) },
    },
    select: { id: true, officeId: true, email: true, mailboxes: { select: { id: true, role: true } } },
  });
  const mailboxes = Object.fromEntries(created.mailboxes.map((mailbox) => [mailbox.role, mailbox.id])) as Record<MailboxRole, number>;
  return { id: created.id, officeId: created.officeId, email: created.email, mailboxes };
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
    text: `UPDATE users SET password_hash = $2, token_version = token_version + 1, password_change_required = false
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
