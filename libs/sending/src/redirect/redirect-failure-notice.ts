import { randomUUID } from 'node:crypto';

/** What a bounce of a redirect refused for good says. */
export interface RedirectFailure {
  /** The original envelope sender: the notice is for them. */
  to: string;
  /** Where the redirect went, and was refused. */
  recipient: string;
  /** The receiving server's reply. */
  reply: string;
  /** Its enhanced status code, `5.1.1`. */
  status: string;
  /** The redirecting user's domain: the notice comes from its mailer-daemon, which reports it. */
  domain: string;
  /** When the redirect was sent. */
  sentAt: Date;
  /** The redirected message's header block, as it came. */
  returnedHead: Buffer;
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * The bounce of a redirect as other MTAs send theirs (RFC 3464): a multipart/report with a readable
 * part, the delivery-status report (Action failed, the status and the server's reply) and the
 * returned message's header; Auto-Submitted, so that nothing answers it.
 */
export function composeRedirectFailureNotice(failure: RedirectFailure): Buffer {
  const boundary = `dsn-${randomUUID()}`;
  const reply = oneLine(failure.reply);
  const head = [
    `From: Mail Delivery System <MAILER-DAEMON@${failure.domain}>`,
    `To: <${failure.to}>`,
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: <dsn-${randomUUID()}@${failure.domain}>`,
    `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Your message was forwarded to ${failure.recipient} by a rule of its recipient at ${failure.domain},`,
    'and that server refused it for good.',
    '',
    'The receiving server said:',
    reply,
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${failure.domain}`,
    `Arrival-Date: ${failure.sentAt.toUTCString().replace('GMT', '+0000')}`,
    '',
    `Final-Recipient: rfc822; ${failure.recipient}`,
    'Action: failed',
    `Status: ${failure.status}`,
    `Diagnostic-Code: smtp; ${reply}`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    'Content-Transfer-Encoding: 8bit',
    '',
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head), failure.returnedHead, Buffer.from(`\r\n--${boundary}--\r\n`)]);
}
