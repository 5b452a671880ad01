import { parseHeaderBlock, type MailHeader } from '@letterbox/mime';
import type { ReceivedMail } from './received-mails';

/** What the control API shows of a kept mail: its headers, and the whole EML only when asked. */
export function receivedMailView(mail: ReceivedMail, withRaw: boolean) {
  return {
    id: mail.id,
    envelope: mail.envelope,
    account: mail.account,
    acceptedAt: new Date(mail.acceptedAt).toISOString(),
    tls: mail.tls,
    size: mail.raw.length,
    headers: topHeaders(mail.raw),
    ...(withRaw ? { raw: mail.raw.toString('base64') } : {}),
  };
}

/** The message's own headers: everything before the first empty line. */
function topHeaders(raw: Buffer): MailHeader[] {
  const ends = [raw.indexOf('\r\n\r\n'), raw.indexOf('\n\n')].filter((index) => index >= 0);
  return parseHeaderBlock(raw.subarray(0, ends.length ? Math.min(...ends) : raw.length));
}
