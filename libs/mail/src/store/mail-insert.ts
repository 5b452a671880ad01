import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { mailRowsInput } from './mail-row-input';
import { mailRowsInsertCtes } from './mail-rows-insert';
import type { MailPlacement, PreparedMail } from './store-mail';

/** Placed by the caller; received as epoch milliseconds, so that any year a Date header gives is one PostgreSQL can hold. */
const INPUT = mailRowsInput({ user_id: 'int', mailbox_id: 'int', received_at_ms: 'float8', seen: 'boolean', flagged: 'boolean', important: 'boolean' });

const INSERT_MAIL = namedStatement(
  'insert-mail',
  `WITH ${mailRowsInsertCtes({
    from: INPUT.recordset('$1', 'i'),
    input: 'i',
    placement: {
      id: "nextval(pg_get_serial_sequence('mails', 'id'))",
      user_id: 'i.user_id',
      mailbox_id: 'i.mailbox_id',
      received_at: 'to_timestamp(i.received_at_ms / 1000)',
      seen: 'i.seen',
      flagged: 'i.flagged',
      important: 'i.important',
      // Mail put in place, not received through the intake: nothing was checked.
      authentication: 'NULL::jsonb',
      spam: 'NULL::jsonb',
    },
  })}
SELECT id, thread_id FROM new_mails`,
);

/** Inserts one prepared mail where `placement` puts it, with its search row and attachments: one statement, atomic by itself. */
export async function insertMail(sql: Pool, prepared: PreparedMail, placement: MailPlacement): Promise<{ id: number; threadId: number }> {
  const receivedAt = placement.receivedAt ?? prepared.summary.date ?? new Date();
  const row = INPUT.row(
    {
      user_id: placement.userId,
      mailbox_id: placement.mailboxId,
      received_at_ms: receivedAt.getTime(),
      seen: placement.seen ?? false,
      flagged: placement.flagged ?? false,
      important: placement.important ?? false,
    },
    prepared,
  );
  const { rows } = await sql.query<{ id: string; thread_id: string }>({ ...INSERT_MAIL, values: [INPUT.parameter([row])] });
  return { id: Number(rows[0].id), threadId: Number(rows[0].thread_id) };
}
