import type { PoolClient } from 'pg';
import { namedStatement } from '@letterbox/db';
import { ATTACHMENT_COLUMNS, columnDefinitions, MESSAGE_COLUMNS } from './mail-row-columns';
import { mailRowsInput } from './mail-row-input';
import { searchDocumentSql } from '../search/search-document';
import type { PreparedMail } from './store-mail';

const MESSAGE = mailRowsInput({});
const attachmentColumns = Object.keys(ATTACHMENT_COLUMNS);

/** The mail's message columns and search row replaced, and its attachments gone: a sibling statement inserts the new ones (a part id is unique per mail). */
const REPLACE_MESSAGE = namedStatement(
  'mail-replace-message',
  `WITH input AS (
  SELECT * FROM ${MESSAGE.recordset('$2', 'i')}
), replaced AS (
  UPDATE mails m SET ${Object.keys(MESSAGE_COLUMNS)
    .map((column) => `${column} = i.${column}`)
    .join(', ')}, received_at = now()
    FROM input i WHERE m.id = $1
), searched AS (
  UPDATE mail_search s SET body = i.body_text, document = ${searchDocumentSql('i.subject_tokens', 'i.people_tokens', 'i.body_tokens')}
    FROM input i WHERE s.mail_id = $1
)
DELETE FROM attachments WHERE mail_id = $1`,
);

const INSERT_ATTACHMENTS = namedStatement(
  'mail-replace-attachments',
  `INSERT INTO attachments (mail_id, ${attachmentColumns.join(', ')})
SELECT $1, ${attachmentColumns.map((column) => `a.${column}`).join(', ')}
  FROM ${MESSAGE.recordset('$2', 'i')}, jsonb_to_recordset(i.attachments) AS a(${columnDefinitions(ATTACHMENT_COLUMNS)})`,
);

/** Puts a newly composed message in a mail's row, its attachments and its search row (a draft saved again), in the caller's transaction. */
export async function replaceMailMessage(client: PoolClient, mailId: number, prepared: PreparedMail): Promise<void> {
  const values = [mailId, MESSAGE.parameter([MESSAGE.row({}, prepared)])];
  await client.query({ ...REPLACE_MESSAGE, values });
  await client.query({ ...INSERT_ATTACHMENTS, values });
}

/** The mails whose ids a relation holds, as SQL: `mailId` is its column of them. */
export interface MailIdsSql {
  from: string;
  mailId: string;
}

/** The statement that deletes these mails outright, not to the trash: a discarded draft's. */
export function discardMailsSql({ from, mailId }: MailIdsSql): string {
  return `UPDATE mails SET deleted_at = now() WHERE id IN (SELECT ${mailId} FROM ${from})`;
}
