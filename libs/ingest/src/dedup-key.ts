import { createHash } from 'node:crypto';

/**
 * What makes two acceptances the same message for one recipient: the sender's address and
 * the Message-ID together. By Message-ID alone, a forged mail with a predictable id that
 * arrived first would suppress the real one. A hash, so any id fits the key.
 */
export function dedupKeyOf(senderAddress: string | undefined, messageId: string): string {
  return createHash('sha256')
    .update(`${(senderAddress ?? '').toLowerCase()}\n${messageId}`)
    .digest('base64url');
}
