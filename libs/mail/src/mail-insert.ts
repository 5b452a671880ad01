import type { HeaderSummary } from '@letterbox/mime';
import { searchDocumentSql, searchDocumentTexts } from './search/search-document';
import type { MailPlacement, PreparedMail } from './store-mail';

/**
 * Common table expressions that insert a prepared mail (`new_mail`), its search row and
 * its attachments (`new_attachments`), appending their values to `values`. Raw SQL, one statement: it is
 * an atomic transaction by itself, needs one round trip and none of Prisma's CPU, and
 * more CTEs can use `new_mail.id`.
 */
export function mailInsertCtes(prepared: PreparedMail, placement: MailPlacement, values: unknown[]): string {
  const value = (item: unknown) => {
    values.push(item);
    return `$${values.length}`;
  };
  const { summary } = prepared;
  const attachments = attachmentRows(prepared);
  const userId = value(placement.userId);
  const subject = value(summary.subject);
  const receivedAt = value(placement.receivedAt ?? summary.date ?? new Date());
  const search = searchDocumentTexts(prepared);
  return `new_mail_id AS (
      SELECT nextval(pg_get_serial_sequence('mails', 'id')) AS id
    ), new_mail AS (
      INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, from_name, to_addresses, cc_addresses, subject, snippet,
                         received_at, size, seen, flagged, important, has_attachments, storage_key, layout)
      SELECT new_mail_id.id, COALESCE(mail_thread_of(${userId}::int, ${value(threadReferences(summary))}::text[], ${subject}, ${receivedAt}::timestamptz), new_mail_id.id),
              ${userId}::int, ${value(placement.mailboxId)}::int, ${value(prepared.messageId)}, ${value(summary.from?.address ?? '')},
              ${value(summary.from?.name ?? '')}, ${value(JSON.stringify(summary.to.map(({ name, address }) => ({ name, address }))))}::jsonb,
              ${value(JSON.stringify(summary.cc.map(({ name, address }) => ({ name, address }))))}::jsonb, ${subject}, ${value(prepared.snippet)},
              ${receivedAt}::timestamptz, ${value(prepared.blob.size)}::int, ${value(placement.seen ?? false)}::boolean,
              ${value(placement.flagged ?? false)}::boolean, ${value(placement.important ?? false)}::boolean,
              ${value(prepared.attachments.some((part) => part.disposition === 'attachment'))}::boolean, ${value(prepared.blob.key)},
              ${value(JSON.stringify(prepared.layout))}::jsonb
        FROM new_mail_id
      RETURNING id, thread_id
    ), new_search AS (
      INSERT INTO mail_search (mail_id, user_id, body, document)
      SELECT new_mail.id, ${userId}::int, ${value(search.body)}, ${searchDocumentSql(value(search.subjectTokens), value(search.peopleTokens), value(search.bodyTokens))}
        FROM new_mail
    ), new_attachments AS (
      INSERT INTO attachments (mail_id, part_id, filename, content_type, disposition, content_id, size, encoding, body_start, body_end)
      SELECT new_mail.id, a.part_id, a.filename, a.content_type, a.disposition, a.content_id, a.size, a.encoding, a.body_start, a.body_end
        FROM new_mail, jsonb_to_recordset(${value(JSON.stringify(attachments))}::jsonb) AS a(part_id text, filename text, content_type text,
             disposition text, content_id text, size int, encoding text, body_start int, body_end int)
    )`;
}

/** The Message-IDs that place a mail in its conversation (mail_thread_of in SQL). */
export function threadReferences(summary: HeaderSummary): string[] {
  return [...new Set(summary.inReplyTo ? [...summary.references, summary.inReplyTo] : summary.references)];
}

/** A prepared mail's attachments as `attachments` rows (less mail_id), for jsonb_to_recordset. */
export function attachmentRows(prepared: PreparedMail) {
  return prepared.attachments.map((part) => ({
    part_id: part.partId,
    filename: part.filename,
    content_type: part.contentType,
    disposition: part.disposition,
    content_id: part.contentId ?? null,
    size: part.size,
    encoding: part.encoding,
    body_start: part.start,
    body_end: part.end,
  }));
}
