import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { inTransaction, namedStatement, type Database } from '@letterbox/db';
import { discardMailsSql, mailRowsInput, mailRowsInsertCtes, replaceMailMessage, storableJson, type MailQueries, type PreparedMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import { answerOf } from '../submit/answer-original';
import { newAttachmentId, type DraftChanges, type DraftContent, type DraftView } from './draft-content';
import { composeSentCopy } from '../compose/compose-sent-copy';
import { DraftNotFoundError, DraftVersionConflictError } from '../send-errors';
import { ownFromAddress, ownFromName, type SenderDirectory, type SignedInSender } from '../sender-directory';
import { refuseIfPastQuota } from '../storage-quota';
import type { SendSubmission } from '../submit/send-submission';
import { fromAddressOf, type Sender, type SendRequest } from '../submit/send-request';
import type { SendView } from '../submit/send-view';

type SignedInUser = Pick<Sender, 'userId' | 'officeId'>;

const DRAFT_COLUMNS = 'd.mail_id, d.version, d.content, d.updated_at';

const NEW_DRAFT = mailRowsInput({ user_id: 'int', mailbox_id: 'int', content: 'jsonb' });

/** A draft's mail, seen and in Drafts, and its row. */
const CREATE = namedStatement(
  'draft-create',
  `WITH ${mailRowsInsertCtes({
    from: NEW_DRAFT.recordset('$1', 'i'),
    input: 'i',
    placement: {
      id: "nextval(pg_get_serial_sequence('mails', 'id'))",
      user_id: 'i.user_id',
      mailbox_id: 'i.mailbox_id',
      received_at: 'now()',
      seen: 'true',
      flagged: 'false',
      important: 'false',
      // The user's own draft: nothing to check.
      authentication: 'NULL::jsonb',
      spam: 'NULL::jsonb',
    },
    carry: ['i.content'],
  })}, new_draft AS (
  INSERT INTO drafts (mail_id, user_id, content) SELECT id, user_id, content FROM placed_mails RETURNING *
)
SELECT ${DRAFT_COLUMNS}, n.thread_id FROM new_draft d JOIN new_mails n ON n.id = d.mail_id`,
);

const UPDATE = namedStatement(
  'draft-update',
  `UPDATE drafts d SET version = version + 1, content = $4::jsonb, updated_at = now()
     FROM mails m WHERE d.mail_id = $1 AND d.user_id = $2 AND d.version = $3 AND m.id = d.mail_id
   RETURNING ${DRAFT_COLUMNS}, m.thread_id`,
);

const VERSION = namedStatement('draft-version', 'SELECT version FROM drafts WHERE mail_id = $1 AND user_id = $2');

const REMOVE = namedStatement(
  'draft-remove',
  `WITH gone AS (DELETE FROM drafts WHERE mail_id = $1 AND user_id = $2 RETURNING mail_id)
   ${discardMailsSql({ from: 'gone', mailId: 'mail_id' })}`,
);

const DRAFT_OF = namedStatement(
  'draft-of',
  `SELECT ${DRAFT_COLUMNS}, m.thread_id, m.size FROM drafts d JOIN mails m ON m.id = d.mail_id
    WHERE d.mail_id = $1 AND d.user_id = $2 AND m.deleted_at IS NULL`,
);

const DRAFTS_MAILBOX = namedStatement('drafts-mailbox-of', `SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'drafts'`);

interface DraftRow {
  mail_id: string;
  version: number;
  content: DraftContent;
  updated_at: Date;
  thread_id: string;
}

/** A saved draft as read back, with the size of its mail: what it takes of the user's quota. */
interface StoredDraftRow extends DraftRow {
  size: number;
}

/**
 * Drafts kept on the server. A draft is a real mail in Drafts, composed anew at each save
 * (so it is listed, searched and threaded like any), plus its editor's content and a
 * version. A save names the version it started from: two tabs saving the same draft
 * cannot overwrite each other unseen, the later is refused (DraftVersionConflictError).
 * Composing and storing the EML happen before the short transaction that swaps it in.
 * A draft is the user's mail (its attachments within its message): a save that would take
 * the user past their quota is refused in that transaction, and nothing of it is kept.
 */
export class Drafts {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly mails: MailQueries,
    private readonly submission: SendSubmission,
    private readonly senders: SenderDirectory,
    /** The quota of users without one of their own (USER_QUOTA_BYTES). */
    private readonly defaultQuotaBytes: number,
  ) {}

  async create(user: SignedInUser, changes: DraftChanges): Promise<DraftView> {
    const sender = await this.senders.of(user);
    let content = applyChanges(EMPTY, { ...changes, from: ownFromAddress(sender, changes.from) });
    if (changes.original) {
      const answer = await answerOf(this.mails, this.blobs, sender, changes.original.mailId, changes.original.mode);
      const recipientsGiven = content.to.length + content.cc.length + content.bcc.length > 0;
      content = {
        ...content,
        to: recipientsGiven ? content.to : answer.to,
        cc: recipientsGiven ? content.cc : answer.cc,
        subject: content.subject || answer.subject,
        attachments: [...answer.attachments.map((attachment) => ({ ...attachment, id: newAttachmentId() })), ...content.attachments],
        answering: answer.answering,
      };
    }
    const prepared = await this.compose(sender, content);
    const row = NEW_DRAFT.row({ user_id: sender.userId, mailbox_id: await this.draftsMailbox(sender.userId), content }, prepared);
    return inTransaction(this.db.sql, async (client) => {
      const { rows } = await client.query<DraftRow>({ ...CREATE, values: [NEW_DRAFT.parameter([row])] });
      await refuseIfPastQuota(client, sender, this.defaultQuotaBytes, prepared.blob.size);
      return draftView(rows[0]);
    });
  }

  async get(userId: number, draftId: number): Promise<DraftView> {
    return draftView(await this.row(userId, draftId));
  }

  /** Saves the changes over version `expectedVersion`; the answer has the next version. */
  async update(user: SignedInUser, draftId: number, expectedVersion: number, changes: DraftChanges): Promise<DraftView> {
    const current = await this.row(user.userId, draftId);
    if (current.version !== expectedVersion) throw new DraftVersionConflictError(draftId, expectedVersion, current.version);
    const sender = await this.senders.of(user);
    const content = applyChanges(current.content, { ...changes, from: ownFromAddress(sender, changes.from) });
    const prepared = await this.compose(sender, content);
    return inTransaction(this.db.sql, async (client) => {
      const { rows } = await client.query<DraftRow>({ ...UPDATE, values: [draftId, sender.userId, expectedVersion, JSON.stringify(content, storableJson)] });
      if (!rows[0]) throw await this.whyNotSaved(client, sender.userId, draftId, expectedVersion);
      await replaceMailMessage(client, draftId, prepared);
      await refuseIfPastQuota(client, sender, this.defaultQuotaBytes, prepared.blob.size - current.size);
      return draftView(rows[0]);
    });
  }

  /** Discards a draft: its mail is deleted for good, not moved to the trash. */
  async remove(userId: number, draftId: number): Promise<void> {
    const { rowCount } = await this.db.sql.query({ ...REMOVE, values: [draftId, userId] });
    if (rowCount === 0) throw new DraftNotFoundError(draftId);
  }

  /**
   * Sends the draft as saved (at `expectedVersion`, when given) and takes it out of
   * Drafts. The send's idempotency key is the draft's version: sending again after a lost
   * answer gives the same send.
   */
  async send(user: SignedInUser, draftId: number, expectedVersion?: number, sendAt?: string): Promise<SendView> {
    const current = await this.row(user.userId, draftId);
    if (expectedVersion !== undefined && current.version !== expectedVersion) throw new DraftVersionConflictError(draftId, expectedVersion, current.version);
    const request = { ...requestOf(current.content), ...(sendAt ? { sendAt } : {}) };
    // The draft's mail is discarded once the send is recorded: the room it takes is the send's to use.
    const { send } = await this.submission.submitRequest(await this.senders.of(user), request, `draft-${draftId}-v${current.version}`, current.size);
    await this.remove(user.userId, draftId);
    return send;
  }

  /** The draft's mail, from the identity it is written as: its address and the name that address shows. */
  private compose(sender: SignedInSender, content: DraftContent): Promise<PreparedMail> {
    const identity = { messageId: `<draft-${randomUUID()}@${fromAddressOf(sender, content).split('@')[1]}>`, date: new Date() };
    const fromName = ownFromName(sender, content.from);
    return composeSentCopy(this.blobs, sender, { ...requestOf(content), ...(fromName === undefined ? {} : { fromName }) }, identity);
  }

  private async whyNotSaved(client: PoolClient, userId: number, draftId: number, expectedVersion: number): Promise<Error> {
    const { rows } = await client.query<{ version: number }>({ ...VERSION, values: [draftId, userId] });
    return rows[0] ? new DraftVersionConflictError(draftId, expectedVersion, rows[0].version) : new DraftNotFoundError(draftId);
  }

  private async row(userId: number, draftId: number): Promise<StoredDraftRow> {
    const { rows } = await this.db.sql.query<StoredDraftRow>({ ...DRAFT_OF, values: [draftId, userId] });
    if (!rows[0]) throw new DraftNotFoundError(draftId);
    return rows[0];
  }

  private async draftsMailbox(userId: number): Promise<number> {
    const { rows } = await this.db.sql.query<{ id: number }>({ ...DRAFTS_MAILBOX, values: [userId] });
    if (!rows[0]) throw new Error(`user ${userId} has no Drafts mailbox`);
    return rows[0].id;
  }
}

const EMPTY: DraftContent = { to: [], cc: [], bcc: [], subject: '', important: false, requestReadReceipt: false, attachments: [] };

function applyChanges(content: DraftContent, { newAttachments = [], removeAttachments = [], original: _original, ...fields }: DraftChanges): DraftContent {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<DraftContent>;
  return {
    ...content,
    ...defined,
    attachments: [
      ...content.attachments.filter((attachment) => !removeAttachments.includes(attachment.id)),
      ...newAttachments.map((attachment) => ({ ...attachment, id: newAttachmentId() })),
    ],
  };
}

function requestOf({ attachments, ...content }: DraftContent): SendRequest {
  return { ...content, saveCopy: true, sendSeparately: false, attachments: attachments.map(({ id: _id, ...attachment }) => attachment) };
}

function draftView(row: DraftRow): DraftView {
  const { content } = row;
  return {
    id: Number(row.mail_id),
    version: row.version,
    updatedAt: row.updated_at.toISOString(),
    threadId: Number(row.thread_id),
    from: content.from ?? null,
    to: content.to,
    cc: content.cc,
    bcc: content.bcc,
    subject: content.subject,
    text: content.text ?? null,
    html: content.html ?? null,
    important: content.important,
    requestReadReceipt: content.requestReadReceipt,
    attachments: content.attachments.map(({ id, filename, contentType, size }) => ({ id, filename, contentType, size })),
    answering: content.answering ? { mailId: content.answering.mailId, mode: content.answering.mode } : null,
  };
}
