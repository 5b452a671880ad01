import { createTransport } from 'nodemailer';
import { loggerFor } from '@letterbox/observability';
import { BOUNCING_DOMAIN, deliveryStatusNotice } from './delivery-status-notice';

const logger = loggerFor('mock-smtp');

/** The returned message's header, at most this much: a DSN returns the header, not the body. */
const RETURNED_HEAD_BYTES = 16 * 1024;

/**
 * Sends the DSN for an accepted mail's `@bounce.example` recipients to its envelope sender
 * through Letterbox's SMTP intake, from the null sender (`MAIL FROM:<>`, so that nothing
 * bounces it back), as a receiving server that found no such user would. Failing to is
 * logged: a provider's bounce is best effort too.
 */
export async function sendBounce(intake: { host: string; port: number }, envelopeFrom: string, recipients: string[], raw: Buffer): Promise<void> {
  const headEnd = raw.indexOf('\r\n\r\n');
  const returnedHead = raw
    .subarray(0, headEnd === -1 ? Math.min(raw.length, RETURNED_HEAD_BYTES) : Math.min(headEnd + 2, RETURNED_HEAD_BYTES))
    .toString('latin1');
  const notice = deliveryStatusNotice({ to: envelopeFrom, recipients, reportingHost: `mx.${BOUNCING_DOMAIN}`, returnedHead });
  const transport = createTransport({ host: intake.host, port: intake.port, secure: false, tls: { rejectUnauthorized: false }, name: `mx.${BOUNCING_DOMAIN}` });
  try {
    await transport.sendMail({ envelope: { from: '', to: [envelopeFrom] }, raw: notice });
    logger.info({ to: envelopeFrom, recipients }, `bounced mail for ${recipients.join(', ')} back to ${envelopeFrom}`);
  } catch (error) {
    logger.warn({ to: envelopeFrom, recipients, err: error }, `the bounce to ${envelopeFrom} could not be sent`);
  } finally {
    transport.close();
  }
}
