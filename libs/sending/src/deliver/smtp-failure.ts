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
