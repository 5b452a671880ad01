import { sql, type RawBuilder } from 'kysely';
import { MAIL_ROW_INPUT_COLUMNS, mailRowInput } from './mail-row-input';
import { mailRowsInsertCtes } from './mail-rows-insert';
import { storableJson } from './storable-text';
import type { MailPlacement, PreparedMail } from './store-mail';

/**
 * Common table expressions that insert one prepared mail where `placement` puts it, with
 * its search row and attachments (mailRowsInsertCtes): `new_mails` returns its id and
 * thread_id, for more CTEs or the final SELECT. One statement: atomic by itself, one round
 * trip, none of Prisma's CPU.
 */
export function mailInsertCtes(prepared: PreparedMail, placement: MailPlacement): RawBuilder<unknown> {
  const row = {
    ...mailRowInput(prepared),
    user_id: placement.userId,
    mailbox_id: placement.mailboxId,
    seen: placement.seen ?? false,
    flagged: placement.flagged ?? false,
    important: placement.important ?? false,
  };
  // Bound as a timestamp of its own, as pg writes a Date: any year a Date header gives.
  const receivedAt = placement.receivedAt ?? prepared.summary.date ?? new Date();
  return sql`new_mail AS (
      SELECT nextval(pg_get_serial_sequence('mails', 'id')) AS mail_id, ${receivedAt}::timestamptz AS received_at, i.*
        FROM jsonb_to_record(${JSON.stringify(row, storableJson)}::jsonb)
             AS i(user_id int, mailbox_id int, seen boolean, flagged boolean, important boolean, ${sql.raw(MAIL_ROW_INPUT_COLUMNS)})
    ), ${sql.raw(mailRowsInsertCtes('new_mail'))}`;
}
