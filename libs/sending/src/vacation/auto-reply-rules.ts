/** What an automatic reply is decided on: the message's headers (decoded, by lower-case name), its envelope sender, and the recipient's own addresses. */
export interface AutoReplyCandidate {
  header(name: string): string[];
  /** The addresses of the To and Cc headers, lower-case. */
  toAndCc: string[];
  /** The envelope's sender (MAIL FROM), lower-case; empty for the null sender. */
  envelopeFrom: string;
  /** The recipient's addresses, lower-case: their primary and aliases. */
  ownAddresses: string[];
}

/** Whether a message's Auto-Submitted header values mark it automatic (RFC 3834 §5): any value but "no". */
export function isAutoSubmitted(values: string[]): boolean {
  return values.some((value) => value.trim().toLowerCase().split(';')[0].trim() !== 'no');
}

/** Senders that are machines: a reply would go to no one who reads it, or start a loop. */
const MACHINE_LOCAL_PART = /^(mailer-daemon|postmaster|listserv|majordomo|(no|do-?not)-?reply|bounces?|owner-.*|.*-(request|owner|bounces?))$/i;
const BULK_PRECEDENCE = /^\s*(bulk|list|junk)\s*$/i;

/**
 * Why a message gets no out-of-office reply, or undefined when it gets one (RFC 3834 §2,
 * RFC 5230 §4.5): not to the null sender or a machine, not to a list's mail or bulk mail, not
 * to an automatic message (Auto-Submitted other than "no"), not to the recipient's own mail,
 * and only when the recipient is named in To or Cc (not a Bcc, a list or a group they are in).
 */
export function noAutoReplyBecause(candidate: AutoReplyCandidate): string | undefined {
  const sender = candidate.envelopeFrom;
  if (sender === '') return 'the null sender';
  if (MACHINE_LOCAL_PART.test(sender.slice(0, sender.lastIndexOf('@')))) return 'a machine sender';
  if (candidate.ownAddresses.includes(sender)) return "the user's own mail";
  if (isAutoSubmitted(candidate.header('auto-submitted'))) return 'an automatic message';
  if (candidate.header('list-id').length > 0 || candidate.header('list-unsubscribe').length > 0) return "a list's mail";
  if (candidate.header('precedence').some((value) => BULK_PRECEDENCE.test(value))) return 'bulk mail';
  if (!candidate.toAndCc.some((address) => candidate.ownAddresses.includes(address))) return 'not addressed to the user in To or Cc';
  return undefined;
}
