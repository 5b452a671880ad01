import type { PreparedMail } from '@letterbox/mail';
import type { SieveMessage } from '@letterbox/sieve';
import type { MessageHeaders } from '@letterbox/mime';

/**
 * A stored message as the rules of one of its recipients see it: its top-level headers, the
 * envelope's sender and that recipient, the body text the parse stage decoded, and its size.
 */
export function sieveMessageOf(headers: MessageHeaders, prepared: PreparedMail, envelope: { from: string; to: string }): SieveMessage {
  return { ...headers, envelope, bodyText: prepared.bodyText, size: prepared.blob.size };
}
