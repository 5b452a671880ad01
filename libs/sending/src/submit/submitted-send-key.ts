import { createHash } from 'node:crypto';

/** The `<id@host>` a Message-ID field names, if it names one: how a submitted message and a copy of it are told apart from others. */
export function messageIdIn(field: string): string | undefined {
  return /<[^<>\s]{1,500}>/.exec(field)?.[0];
}

/**
 * The idempotency key a message a mail client submitted is recorded under: its Message-ID, so a client retrying
 * after a lost connection makes the same send, and the copy the client then appends to Sent finds it.
 */
export function submittedSendKey(messageId: string): string {
  return `smtp:${createHash('sha256').update(messageId).digest('base64url')}`;
}
