import type { PoolClient } from 'pg';
import { ATTACHMENT_ROW_INPUT_COLUMNS, attachmentRows } from './mail-row-input';
import { searchDocumentSql, searchDocumentTexts } from './search/search-document';
import { storableJson } from './storable-text';
import type { PreparedMail } from './store-mail';

/** Puts a newly composed message in a mail's row, its attachments and its search row (a draft saved again), in the caller's transaction. */
export async function replaceMailMessage(client: PoolClient, mailId: number, prepared: PreparedMail): Promise<void> {
  const { summary } = prepared;
  const search = searchDocumentTexts(prepared);
  await client.query({
    text: `UPDATE mails SET message_id = $2, from_address = $3, from_name = $4, to_addresses = $5::jsonb, cc_addresses = $6::jsonb,
                  subject = $7, snippet = $8, received_at = now(), size = $9, has_attachments = $10, storage_key = $11, layout = $12::jsonb
            WHERE id = $1`,
    values: [
      mailId,
      prepared.messageId,
      summary.from?.address ?? '',
      summary.from?.name ?? '',
      JSON.stringify(summary.to.map(({ name, address }) => ({ name, address })), storableJson),
      JSON.stringify(summary.cc.map(({ name, address }) => ({ name, address })), storableJson),
      summary.subject,
      prepared.snippet,
      prepared.blob.size,
      prepared.attachments.some((part) => part.disposition === 'attachment'),
      prepared.blob.key,
      JSON.stringify(prepared.layout),
    ],
  });
  await client.query({ text: 'DELETE FROM attachments WHERE mail_id = $1', values: [mailId] });
  await client.query({
    text: `INSERT INTO attachments (mail_id, part_id, filename, content_type, disposition, content_id, size, encoding, body_start, body_end)
           SELECT $1, a.part_id, a.filename, a.content_type, a.disposition, a.content_id, a.size, a.encoding, a.body_start, a.body_end
             FROM jsonb_to_recordset($2::jsonb) AS a(${ATTACHMENT_ROW_INPUT_COLUMNS})`,
    values: [mailId, JSON.stringify(attachmentRows(prepared), storableJson)],
  });
  await client.query({
    text: `UPDATE mail_search SET body = $2, document = ${searchDocumentSql('$3', '$4', '$5')} WHERE mail_id = $1`,
    values: [mailId, search.body, search.subjectTokens, search.peopleTokens, search.bodyTokens],
  });
}

/** The statement that deletes the mails whose ids `ids` (a subquery) selects outright, not to the trash: a discarded draft's. */
export function discardMailsSql(ids: string): string {
  return `UPDATE mails SET deleted_at = now() WHERE id IN (${ids})`;
}
