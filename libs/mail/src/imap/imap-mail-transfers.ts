import type { PoolClient } from 'pg';
import { inTransaction, namedStatement, type Database } from '@letterbox/db';
import { bulkChangeEvents, mailCreatedEvents, type MailAnnouncer } from '@letterbox/events';
import { MailboxLockedError, MailboxNotFoundError } from '../mail-errors';
import { ATTACHMENT_COLUMNS, MESSAGE_COLUMNS } from '../store/mail-row-columns';
import { imapUsage } from './imap-usage';

/** A COPY or MOVE done: each source UID with the UID its mail has in the destination (COPYUID), in source UID order. */
export interface ImapTransfer {
  sourceUids: number[];
  destinationUids: number[];
  destinationUidValidity: number;
}

/** The user's mail past their quota after a copy: the copy is not made (IMAP's OVERQUOTA). */
export class ImapOverQuotaError extends Error {
  constructor(
    readonly userId: number,
    readonly quotaBytes: number,
  ) {
    super(`user ${userId} would be past their quota of ${quotaBytes} bytes`);
  }
}

/** The selected mailbox's mails by UID, visible and in an unlocked mailbox of the user's. */
const SOURCE = `SELECT u.uid, m.* FROM mail_uids u JOIN mails m ON m.id = u.mail_id JOIN mailboxes b ON b.id = u.mailbox_id
   WHERE u.mailbox_id = $1 AND b.user_id = $2 AND NOT b.locked AND m.deleted_at IS NULL AND u.uid = ANY($3::bigint[])`;

const TARGET = namedStatement('imap-transfer-target', 'SELECT locked, uid_validity FROM mailboxes WHERE id = $1 AND user_id = $2 FOR KEY SHARE');

const MOVE = namedStatement('imap-move', `UPDATE mails m SET mailbox_id = $4 FROM (${SOURCE}) s WHERE m.id = s.id RETURNING m.id, s.uid`);

/** Columns a copy takes from its original as they are: the message, where it is in its conversation, and its flags. */
const COPIED = [
  ...Object.keys(MESSAGE_COLUMNS),
  'thread_id',
  'user_id',
  'received_at',
  'seen',
  'flagged',
  'important',
  'answered',
  'forwarded',
  'marked_deleted',
  'keywords',
  'authentication',
  'spam',
];
const attachmentColumns = Object.keys(ATTACHMENT_COLUMNS);

/** New rows sharing the originals' stored EML (content addressing allows it), with their attachments' and search rows. */
const COPY = namedStatement(
  'imap-copy',
  `WITH source AS (
  SELECT s.*, nextval(pg_get_serial_sequence('mails', 'id')) AS new_id FROM (${SOURCE}) s
), copied AS (
  INSERT INTO mails (id, mailbox_id, ${COPIED.join(', ')}) SELECT s.new_id, $4, ${COPIED.map((column) => `s.${column}`).join(', ')} FROM source s
  RETURNING id
), searched AS (
  INSERT INTO mail_search (mail_id, user_id, body, document) SELECT s.new_id, x.user_id, x.body, x.document FROM source s JOIN mail_search x ON x.mail_id = s.id
), attached AS (
  INSERT INTO attachments (mail_id, ${attachmentColumns.join(', ')})
  SELECT s.new_id, ${attachmentColumns.map((column) => `a.${column}`).join(', ')} FROM source s JOIN attachments a ON a.mail_id = s.id
)
SELECT s.new_id AS id, s.uid FROM source s JOIN copied c ON c.id = s.new_id`,
);

const NEW_UIDS = namedStatement('imap-new-uids', 'SELECT mail_id, uid FROM mail_uids WHERE mail_id = ANY($1::int8[]) AND mailbox_id = $2');

/**
 * IMAP's COPY and MOVE between a user's mailboxes (RFC 3501 6.4.7, RFC 6851): one statement each, the
 * mailbox counters, threads' counts, UIDs and MODSEQs following by their triggers, announced once committed.
 */
export class ImapMailTransfers {
  constructor(
    private readonly db: Database,
    private readonly announcer: MailAnnouncer,
    /** USER_QUOTA_BYTES: the quota of users without one of their own; a copy past it is refused. */
    private readonly defaultQuotaBytes: number,
  ) {}

  async move(userId: number, mailboxId: number, uids: readonly number[], targetId: number): Promise<ImapTransfer> {
    const { transfer, mailIds } = await inTransaction(this.db.sql, async (client) => {
      const validity = await usableTarget(client, userId, targetId);
      const { rows } = await client.query<{ id: string; uid: string }>({ ...MOVE, values: [mailboxId, userId, uids, targetId] });
      return { transfer: await withNewUids(client, rows, targetId, validity), mailIds: rows.map((row) => Number(row.id)) };
    });
    if (mailIds.length > 0) await this.announcer.announce(bulkChangeEvents(mailIds, [], { mailboxId: targetId }).map((event) => ({ userId, event })));
    return transfer;
  }

  async copy(userId: number, mailboxId: number, uids: readonly number[], targetId: number): Promise<ImapTransfer> {
    const { transfer, mailIds } = await inTransaction(this.db.sql, async (client) => {
      const validity = await usableTarget(client, userId, targetId);
      const { rows } = await client.query<{ id: string; uid: string }>({ ...COPY, values: [mailboxId, userId, uids, targetId] });
      await this.refuseIfPastQuota(client, userId, rows.length);
      return { transfer: await withNewUids(client, rows, targetId, validity), mailIds: rows.map((row) => Number(row.id)) };
    });
    if (mailIds.length > 0) await this.announcer.announce(mailCreatedEvents(mailIds.map((mailId) => ({ userId, mailId, mailboxId: targetId }))));
    return transfer;
  }

  /** The users' trigger has counted the copies and holds the user's row until commit: concurrent copies cannot both slip under. */
  private async refuseIfPastQuota(client: PoolClient, userId: number, copies: number): Promise<void> {
    if (copies === 0) return;
    const { usedBytes, quotaBytes } = await imapUsage(client, userId, this.defaultQuotaBytes);
    if (usedBytes > quotaBytes) throw new ImapOverQuotaError(userId, quotaBytes);
  }
}

async function usableTarget(client: PoolClient, userId: number, targetId: number): Promise<number> {
  const { rows } = await client.query<{ locked: boolean; uid_validity: string }>({ ...TARGET, values: [targetId, userId] });
  if (rows.length === 0) throw new MailboxNotFoundError(targetId);
  if (rows[0].locked) throw new MailboxLockedError(targetId);
  return Number(rows[0].uid_validity);
}

/** The UIDs the trigger gave the mails in the destination, read once the statement has run, paired in source UID order. */
async function withNewUids(client: PoolClient, rows: Array<{ id: string; uid: string }>, targetId: number, validity: number): Promise<ImapTransfer> {
  const { rows: numbered } = await client.query<{ mail_id: string; uid: string }>({ ...NEW_UIDS, values: [rows.map((row) => row.id), targetId] });
  const newUid = new Map(numbered.map((row) => [row.mail_id, Number(row.uid)]));
  const pairs = rows.map((row) => [Number(row.uid), newUid.get(row.id)!] as const).sort((a, b) => a[0] - b[0]);
  return { sourceUids: pairs.map((pair) => pair[0]), destinationUids: pairs.map((pair) => pair[1]), destinationUidValidity: validity };
}
