/**
 * The draft an undone send becomes: its recorded request, less how it was to go out, as
 * `drafts.content` holds a draft (DraftContent), each attachment given an id of its own.
 * Its Sent copy, back in Drafts, is then a draft like any other: opened, saved, sent again
 * or discarded, never a stale copy beside a new one.
 */
export function undoneSendDraftSql(request: string): string {
  return `jsonb_strip_nulls(jsonb_build_object(
    'from', ${request}->'from', 'text', ${request}->'text', 'html', ${request}->'html', 'answering', ${request}->'answering'))
  || jsonb_build_object(
    'to', ${request}->'to', 'cc', ${request}->'cc', 'bcc', ${request}->'bcc', 'subject', ${request}->'subject',
    'important', ${request}->'important', 'requestReadReceipt', ${request}->'requestReadReceipt',
    'attachments', COALESCE((SELECT jsonb_agg(a || jsonb_build_object('id', left(gen_random_uuid()::text, 12)) ORDER BY n)
                               FROM jsonb_array_elements(${request}->'attachments') WITH ORDINALITY AS e(a, n)), '[]'::jsonb))`;
}
