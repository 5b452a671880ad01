/**
 * The keys among `keys` (an SQL text[]) that an attachment of a send, or a message a send
 * redirects, is stored under, whatever the send's status: a probe of outbound_sends_attachments_idx
 * and of outbound_sends_redirect_blob_idx per key.
 */
export function sendBlobReferencesSql(keys: string): string {
  return `SELECT k AS key FROM unnest(${keys}) AS k
           WHERE EXISTS (SELECT 1 FROM outbound_sends WHERE request->'attachments' @> jsonb_build_array(jsonb_build_object('storageKey', k)))
              OR EXISTS (SELECT 1 FROM outbound_sends WHERE request ? 'redirect' AND request->'redirect'->>'storageKey' = k)`;
}

/** The same for the attachments of drafts, through drafts_attachments_idx. */
export function draftBlobReferencesSql(keys: string): string {
  return `SELECT k AS key FROM unnest(${keys}) AS k
           WHERE EXISTS (SELECT 1 FROM drafts WHERE content->'attachments' @> jsonb_build_array(jsonb_build_object('storageKey', k)))`;
}
