import type { PoolClient } from 'pg';
import type { MailboxRole } from '@letterbox/db';

/** Every user has these, named as a webmail shows them. */
export const SYSTEM_MAILBOXES: ReadonlyArray<{ role: MailboxRole; name: string }> = [
  { role: 'inbox', name: 'Inbox' },
  { role: 'sent', name: 'Sent' },
  { role: 'drafts', name: 'Drafts' },
  { role: 'spam', name: 'Spam' },
  { role: 'trash', name: 'Trash' },
];

export interface CreatedUser {
  id: number;
  officeId: number;
  email: string;
  /** Mailbox id by role. */
  mailboxes: Record<MailboxRole, number>;
}

/** A user's row as an administrator or a seed makes it; the password already hashed. */
export interface UserRow {
  officeId: number;
  email: string;
  displayName: string;
  passwordHash: string;
  role?: 'user' | 'admin';
  /** An initial password chosen by someone else: the user must choose their own at first sign-in. */
  passwordChangeRequired?: boolean;
  /** Null or absent: the deployment's USER_QUOTA_BYTES. */
  quotaBytes?: number | null;
}

/**
 * An office and its first domain, in the caller's transaction (so that what else it records, an audit event,
 * commits with it). A taken domain fails with PostgreSQL's unique violation (23505).
 */
export async function insertOffice(client: PoolClient, office: { name: string; domain: string }): Promise<{ id: number }> {
  const domain = office.domain.toLowerCase();
  const { rows } = await client.query<{ id: number }>({
    text: 'INSERT INTO offices (name, domain) VALUES ($1, $2) RETURNING id',
    values: [office.name, domain],
  });
  await client.query({ text: 'INSERT INTO domains (office_id, name) VALUES ($1, $2)', values: [rows[0].id, domain] });
  return rows[0];
}

/**
 * A user, their primary address and the system mailboxes, in the caller's transaction. An address any owner
 * has already (user, alias or group) fails with PostgreSQL's unique violation (23505).
 */
export async function insertUser(client: PoolClient, user: UserRow): Promise<CreatedUser> {
  const email = user.email.toLowerCase();
  const { rows } = await client.query<{ id: number }>({
    text: `INSERT INTO users (office_id, email, display_name, password_hash, role, password_change_required, quota_bytes)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    values: [user.officeId, email, user.displayName, user.passwordHash, user.role ?? 'user', user.passwordChangeRequired ?? false, user.quotaBytes ?? null],
  });
  const id = rows[0].id;
  await client.query({ text: `INSERT INTO addresses (address, office_id, kind, user_id) VALUES ($1, $2, 'primary', $3)`, values: [email, user.officeId, id] });
  const mailboxes = await client.query<{ id: number; role: MailboxRole }>({
    text: 'INSERT INTO mailboxes (user_id, name, role) SELECT $1, name, role::mailbox_role FROM unnest($2::text[], $3::text[]) AS m(name, role) RETURNING id, role',
    values: [id, SYSTEM_MAILBOXES.map((mailbox) => mailbox.name), SYSTEM_MAILBOXES.map((mailbox) => mailbox.role)],
  });
  return {
    id,
    officeId: user.officeId,
    email,
    mailboxes: Object.fromEntries(mailboxes.rows.map((mailbox) => [mailbox.role, mailbox.id])) as Record<MailboxRole, number>,
  };
}
