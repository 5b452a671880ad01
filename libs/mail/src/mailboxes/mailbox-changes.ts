import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@letterbox/db';
import { MailboxLockedError, MailboxNameTakenError, MailboxNotFoundError, SystemMailboxError, WrongPasswordError } from '../mail-errors';
import { MAILBOX_COLUMNS, mapMailboxRow, type MailboxRow, type MailboxView } from '../mail-views';

/**
 * The user's own folders (custom mailboxes): made, renamed and deleted; and locking of any
 * mailbox. System mailboxes (inbox, sent, drafts, spam, trash) keep their names and stay.
 * A folder's mail goes to the trash with the folder, in the same transaction, and the
 * counters follow by the trigger on mails.
 */
export class MailboxChanges {
  constructor(
    private readonly sql: Pool,
    private readonly confirmPassword: (userId: number, password: string) => Promise<boolean>,
  ) {}

  async create(userId: number, name: string): Promise<MailboxView> {
    const { rows } = await this.sql
      .query<MailboxRow>({
        text: `INSERT INTO mailboxes (user_id, name, role) VALUES ($1, $2, 'custom') RETURNING ${MAILBOX_COLUMNS}`,
        values: [userId, name],
      })
      .catch(nameTaken(name));
    return mapMailboxRow(rows[0]);
  }

  async rename(userId: number, mailboxId: number, name: string): Promise<MailboxView> {
    const mailbox = await this.mailboxOf(this.sql, userId, mailboxId);
    if (mailbox.role !== 'custom') throw new SystemMailboxError(mailboxId, mailbox.role, 'renamed');
    const { rows } = await this.sql
      .query<MailboxRow>({
        text: `UPDATE mailboxes SET name = $3 WHERE id = $2 AND user_id = $1 RETURNING ${MAILBOX_COLUMNS}`,
        values: [userId, mailboxId, name],
      })
      .catch(nameTaken(name));
    if (rows.length === 0) throw new MailboxNotFoundError(mailboxId);
    return mapMailboxRow(rows[0]);
  }

  /** Deletes a folder; its mail (deleted or not) moves to the trash first. Answers how many live mails moved. */
  async remove(userId: number, mailboxId: number): Promise<{ id: number; movedToTrash: number }> {
    return inTransaction(this.sql, async (client) => {
      const mailbox = await this.mailboxOf(client, userId, mailboxId, 'FOR UPDATE');
      if (mailbox.role !== 'custom') throw new SystemMailboxError(mailboxId, mailbox.role, 'deleted');
      if (mailbox.locked) throw new MailboxLockedError(mailboxId);
      const moved = await client.query<{ live: string }>({
        text: `WITH moved AS (
                 UPDATE mails SET mailbox_id = (SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'trash' LIMIT 1)
                  WHERE user_id = $1 AND mailbox_id = $2 RETURNING deleted_at)
               SELECT count(*) FILTER (WHERE deleted_at IS NULL) AS live FROM moved`,
        values: [userId, mailboxId],
      });
      await client.query({ text: 'DELETE FROM mailboxes WHERE id = $1', values: [mailboxId] });
      return { id: mailboxId, movedToTrash: Number(moved.rows[0].live) };
    });
  }

  lock(userId: number, mailboxId: number): Promise<MailboxView> {
    return this.setLocked(userId, mailboxId, true);
  }

  /** Unlocking asks for the password again: a session left open is not enough to read locked mail. */
  async unlock(userId: number, mailboxId: number, password: string): Promise<MailboxView> {
    await this.mailboxOf(this.sql, userId, mailboxId);
    if (!(await this.confirmPassword(userId, password))) throw new WrongPasswordError();
    return this.setLocked(userId, mailboxId, false);
  }

  private async setLocked(userId: number, mailboxId: number, locked: boolean): Promise<MailboxView> {
    const { rows } = await this.sql.query<MailboxRow>({
      text: `UPDATE mailboxes SET locked = $3 WHERE id = $2 AND user_id = $1 RETURNING ${MAILBOX_COLUMNS}`,
      values: [userId, mailboxId, locked],
    });
    if (rows.length === 0) throw new MailboxNotFoundError(mailboxId);
    return mapMailboxRow(rows[0]);
  }

  private async mailboxOf(sql: Pool | PoolClient, userId: number, mailboxId: number, lock = ''): Promise<MailboxRow> {
    const { rows } = await sql.query<MailboxRow>({
      text: `SELECT ${MAILBOX_COLUMNS} FROM mailboxes WHERE id = $2 AND user_id = $1 ${lock}`,
      values: [userId, mailboxId],
    });
    if (rows.length === 0) throw new MailboxNotFoundError(mailboxId);
    return rows[0];
  }
}

function nameTaken(name: string) {
  return (error: { code?: string }): never => {
    if (error.code === '23505') throw new MailboxNameTakenError(name);
    throw error;
  };
}
