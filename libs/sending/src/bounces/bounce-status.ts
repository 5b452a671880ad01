/**
 * Enhanced status codes (RFC 3463) that say the address itself is wrong, for good: sending to
 * it again cannot succeed, so it goes on the office's suppression list. 5.1.1 bad mailbox,
 * 5.1.2 bad domain, 5.1.3 bad address syntax, 5.1.6 mailbox moved, 5.1.10 null MX (RFC 7505).
 * Any other 5.x.x (a full mailbox, a policy refusal, a message too large) bounces that send
 * only: the next one may well go through.
 */
const HARD_STATUSES = new Set(['5.1.1', '5.1.2', '5.1.3', '5.1.6', '5.1.10']);

/** The first enhanced status code in a text (an SMTP reply, a DSN's Status or Diagnostic-Code), as class.subject.detail. */
const ENHANCED_STATUS = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

export function enhancedStatusIn(text: string): string | undefined {
  const match = ENHANCED_STATUS.exec(text.slice(0, 1000));
  return match ? `${match[1]}.${Number(match[2])}.${Number(match[3])}` : undefined;
}

/** Whether a failure with this enhanced status code puts its address on the suppression list. */
export function isHardBounce(status: string | undefined): boolean {
  return status !== undefined && HARD_STATUSES.has(status);
}
