/**
 * The keys among `keys` (an SQL text[]) that a mail's EML is stored under, a deleted
 * mail's too (its row stays): a probe of mails_storage_key_idx per key.
 */
export function mailBlobReferencesSql(keys: string): string {
  return `SELECT k AS key FROM unnest(${keys}) AS k WHERE EXISTS (SELECT 1 FROM mails WHERE storage_key = k)`;
}
