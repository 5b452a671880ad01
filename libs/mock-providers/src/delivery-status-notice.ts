import { randomUUID } from 'node:crypto';

/** Mail to any address in this domain is taken, then bounced: what the demo and the tests send to for a bounce. */
export const BOUNCING_DOMAIN = 'bounce.example';

export const bouncesAt = (address: string): boolean => address.toLowerCase().endsWith(`@${BOUNCING_DOMAIN}`);

/**
 * The DSN a receiving server sends back for recipients that do not exist (RFC 3464
 * multipart/report, report-type=delivery-status): a readable part, the report with each
 * recipient's Final-Recipient, Action failed, Status 5.1.1 and Diagnostic-Code, and the
 * returned message's header.
 */
export function deliveryStatusNotice(options: { to: string; recipients: string[]; reportingHost: string; returnedHead: string }): string {
  const boundary = `dsn-${randomUUID()}`;
  const perRecipient = options.recipients.map((recipient) =>
    [
      `Final-Recipient: rfc822; ${recipient}`,
      'Action: failed',
      'Status: 5.1.1',
      `Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address rejected: User unknown`,
    ].join('\r\n'),
  );
  return [
    `From: Mail Delivery System <MAILER-DAEMON@${options.reportingHost}>`,
    `To: <${options.to}>`,
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: <${randomUUID()}@${options.reportingHost}>`,
    `Date: ${new Date().toUTCString()}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `Your message could not be delivered to ${options.recipients.join(', ')}: no such user.`,
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${options.reportingHost}`,
    `Arrival-Date: ${new Date().toUTCString()}`,
    '',
    perRecipient.join('\r\n\r\n'),
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    options.returnedHead,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
