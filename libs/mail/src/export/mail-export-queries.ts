import type { Pool } from 'pg';

/** A mail as a per-user export writes it: its stored EML, where it is and its flags. */
export interface ExportedMail {
  id: number;
  storageKey: string;
  mailbox: string;
  receivedAt: Date;
  fromAddress: string;
  seen: boolean;
  flagged: boolean;
  important: boolean;
}

/**
 * The reads and small writes a per-user export and import need (libs/backup's mbox): a
 * user's mails in pages by id, the mailbox a folder's name names (a custom one made when
 * missing), and whether a mailbox holds a stored EML already, so an import run again
 * stores nothing twice.
 */
export class MailExportQueries {
  constructor(private readonly sql: Pool) {}

  async page(userId: number, afterId: number, limit: number): Promise<ExportedMail[]> {
    const { rows } = await this.sql.query<ExportedMail & { id: string }>(
      `SELECT m.id, m.storage_key AS "storageKey", b.name AS mailbox, m.received_at AS "receivedAt", m.from_address AS "fromAddress",
              m.seen, m.flagged, m.important
         FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id
        WHERE m.user_id = $1 AND m.id > $2 AND m.deleted_at IS NULL
        ORDER BY m.id LIMIT $3`,
      [userId, afterId, limit],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  async mailboxNamed(userId: number, name: string): Promise<number> {
    await this.sql.query(`INSERT INTO mailboxes (user_id, name, role) VALUES ($1, $2, 'custom') ON CONFLICT (user_id, name) DO NOTHING`, [userId, name]);
    const { rows } = await this.sql.query<{ id: number }>('SELECT id FROM mailboxes WHERE user_id = $1 AND name = $2', [userId, name]);
    return rows[0].id;
  }

  async holds(userId: number, mailboxId: number, storageKey: string): Promise<boolean> {
    const { rows } = await this.sql.query('SELECT 1 FROM mails WHERE user_id = $1 AND mailbox_id = $2 AND storage_key = $3 AND deleted_at IS NULL LIMIT 1', [
      userId,
      mailboxId,
      storageKey,
    ]);
    return rows.length > 0;
  }
}
