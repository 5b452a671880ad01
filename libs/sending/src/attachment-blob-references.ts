/**
 * The keys among `keys` (an SQL text[]) that an attachment of a send, a message a send
 * redirects or a message a mail client submitted is stored under, whatever the send's status: a probe
 * of outbound_sends_attachments_idx, outbound_sends_redirect_blob_idx and outbound_sends_submitted_blob_idx per key.
 */
export function sendBlobReferencesSql(keys: string): string {
  return `SELECT k AS key FROM unnest(${keys}) AS k
           WHERE EXISTS (SELECT 1 FROM outbound_sends WHERE request->'attachments' @> jsonb_build_array(jsonb_build_object('storageKey', k)))
              OR EXISTS (SELECT 1 FROM outbound_sends WHERE request ? 'redirect' AND request->'redirect'->>'storageKey' = k)
              OR EXISTS (SELECT 1 FROM outbound_sends WHERE request ? 'submitted' AND request->'submitted'->>'storageKey' = k)`;
}

/** The same for the attachments of drafts, through drafts_attachments_idx. */
export function draftBlobReferencesSql(keys: string): string {
  return `SELECT k AS key FROM unnest(${keys}) AS k
           WHERE EXISTS (SELECT 1 FROM drafts WHERE content->'attachments' @> jsonb_build_array(jsonb_build_object('storageKey', k)))`;
}
