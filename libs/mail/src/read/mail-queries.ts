import { namedStatement, type UserReads } from '@letterbox/db';
import type { MailAuthentication } from '@letterbox/mail-auth';
import type { MailAddress, MailLayout } from '@letterbox/mime';
import type { SpamVerdict } from '../spam-verdict';
import { MailboxLockedError, MailNotFoundError } from '../mail-errors';
import { mapSummaryRow, SUMMARY_COLUMNS, type AttachmentView, type MailRecord, type ReceiptView, type SummaryRow } from '../mail-views';

type RecordRow = SummaryRow & {
  to_addresses: MailAddress[];
  cc_addresses: MailAddress[];
  storage_key: string;
  layout: MailLayout;
  mailbox_locked: boolean;
  authentication: MailAuthentication | null;
  spam: SpamVerdict | null;
  attachments: Array<AttachmentView & { encoding: string; bodyStart: number; bodyEnd: number }>;
};

const RECORD = namedStatement(
  'mail-record',
  `SELECT ${SUMMARY_COLUMNS}, m.to_addresses, m.cc_addresses, m.storage_key, m.layout, mb.locked AS mailbox_locked, m.authentication, m.spam,
     COALESCE((SELECT json_agg(json_build_object(
         'partId', a.part_id, 'filename', a.filename, 'contentType', a.content_type,
         'disposition', a.disposition, 'contentId', a.content_id, 'size', a.size,
         'encoding', a.encoding, 'bodyStart', a.body_start, 'bodyEnd', a.body_end) ORDER BY a.id)
       FROM attachments a WHERE a.mail_id = m.id), '[]') AS attachments
   FROM mails m JOIN mailboxes mb ON mb.id = m.mailbox_id
   WHERE m.id = $1 AND m.user_id = $2 AND m.deleted_at IS NULL`,
);

const ATTACHMENTS_OF = namedStatement(
  'mail-attachments-of',
  `SELECT mail_id AS "mailId", part_id AS "partId", filename, content_type AS "contentType", disposition, content_id AS "contentId", size
     FROM attachments WHERE mail_id = ANY($1::int8[]) ORDER BY id`,
);

const RECEIPTS_OF = namedStatement(
  'mail-receipts-of',
  'SELECT mail_id, recipient_email, first_read_at, read_count FROM read_receipts WHERE mail_id = ANY($1::int8[]) ORDER BY id',
);

/** Point reads of one user's mail, in raw SQL: these run on every mail a user opens. */
export class MailQueries {
  constructor(private readonly reads: UserReads) {}

  /** The user's live mail with its attachments; a mail of a locked mailbox is refused. */
  async record(userId: number, mailId: number): Promise<MailRecord> {
    const sql = await this.reads.poolFor(userId);
    const { rows } = await sql.query<RecordRow>({ ...RECORD, values: [mailId, userId] });
    const row = rows[0];
    if (!row) throw new MailNotFoundError(mailId);
    if (row.mailbox_locked) throw new MailboxLockedError(row.mailbox_id);
    return {
      ...mapSummaryRow(row),
      to: row.to_addresses,
      cc: row.cc_addresses,
      storageKey: row.storage_key,
      layout: row.layout,
      mailboxLocked: row.mailbox_locked,
      authentication: row.authentication,
      spam: row.spam,
      attachments: row.attachments,
    };
  }

  /** The attachments of mails of the user's. */
  async attachmentsOf(userId: number, mailIds: number[]): Promise<Map<number, AttachmentView[]>> {
    const sql = await this.reads.poolFor(userId);
    const { rows } = await sql.query<AttachmentView & { mailId: string }>({ ...ATTACHMENTS_OF, values: [mailIds] });
    return groupBy(rows, ({ mailId, ...attachment }) => [Number(mailId), attachment]);
  }

  /** The read receipts of mails of the user's. */
  async receiptsOf(userId: number, mailIds: number[]): Promise<Map<number, ReceiptView[]>> {
    const sql = await this.reads.poolFor(userId);
    const { rows } = await sql.query<{ mail_id: string; recipient_email: string; first_read_at: Date | null; read_count: number }>({
      ...RECEIPTS_OF,
      values: [mailIds],
    });
    return groupBy(rows, (row) => [
      Number(row.mail_id),
      { email: row.recipient_email, firstReadAt: row.first_read_at?.toISOString() ?? null, readCount: row.read_count },
    ]);
  }
}

function groupBy<Row, Value>(rows: Row[], entry: (row: Row) => [number, Value]): Map<number, Value[]> {
  const groups = new Map<number, Value[]>();
  for (const row of rows) {
    const [key, value] = entry(row);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
