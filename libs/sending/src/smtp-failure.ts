/** An SMTP failure that retrying cannot fix: the provider answered 5xx. */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The provider's reply, or the connection problem, as recorded on the send. */
export function describeSmtpFailure(error: unknown): string {
  const { response, code, message } = error as { response?: string; code?: string; message?: string };
  return (response ?? (code ? `${code}: ${message}` : message) ?? String(error)).slice(0, 1000);
}

/**
 * A transient reply with an enhanced status of class 4.7 (security or policy, RFC 3463),
 * which is how providers say a sender is over its rate (the mock: `451 4.7.1`).
 */
export function isRateLimitReply(error: unknown): boolean {
  const { responseCode, response } = error as { responseCode?: number; response?: string };
  return typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500 && /^4\d\d[ -]4\.7\.\d{1,3}\b/.test(response ?? '');
}
