import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailAttachment } from './mail-attachment';
import type { MailEnvelope } from './mail-envelope';

export interface MailBody {
  text?: string;
  html?: string;
  attachments: MailAttachment[];
}

/**
 * Builds the message with nodemailer's composer, pinning everything it would otherwise take
 * from the clock or from crypto.randomBytes (Date, Message-ID, multipart boundaries), so the
 * same input always gives the same bytes. `label` keeps apart mails that share an envelope.
 */
export function composeMail(label: string, envelope: MailEnvelope & { subject: string; date: Date }, body: MailBody): Promise<Buffer> {
  const fingerprint = createHash('sha256').update(label).update(JSON.stringify(envelope)).digest('hex');
  const senderDomain = envelope.from.address.split('@').pop();
  const composer = new MailComposer({
    from: envelope.from,
    to: envelope.to,
    cc: envelope.cc,
    subject: envelope.subject,
    date: envelope.date,
    messageId: envelope.messageId ?? `<${label}.${fingerprint.slice(0, 24)}@${senderDomain}>`,
    baseBoundary: fingerprint.slice(24, 40),
    newline: 'win',
    text: body.text,
    html: body.html,
    attachments: body.attachments.map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      contentType: attachment.contentType,
      contentDisposition: attachment.disposition,
      cid: attachment.contentId,
    })),
  });
  return composer.compile().build();
}
