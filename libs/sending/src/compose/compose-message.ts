import { pipeline, type Readable } from 'node:stream';
import type Mail from 'nodemailer/lib/mailer';
import { createTransferDecoder } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import { fromAddressOf, type SendAttachment, type Sender, type SendRequest } from '../submit/send-request';

export interface MessageIdentity {
  messageId: string;
  date: Date;
}

/** Whom one SMTP message goes to, and what its headers show of the recipients. */
export interface Delivery {
  /** Envelope recipients. */
  recipients: string[];
  /** A message to one of the send's recipients: which one (recipientsOf's order), as its bounce address names it. */
  recipientIndex?: number;
  /** A send separately shows each recipient only themselves. */
  headerTo: string[];
  headerCc: string[];
  /** The read-receipt image for this one recipient, when receipts were asked for. */
  receiptPixelUrl?: string;
  /** To Letterbox's own users, delivered by Letterbox (Colleagues), not the provider. */
  internal?: boolean;
}

/**
 * nodemailer options for one message of a send. Attachments stream from blob storage as
 * the message is written, so no attachment is ever held in memory. Bcc goes only in the
 * envelope: nodemailer leaves the header out unless `keepBcc`, which only the Sent copy sets.
 */
export function messageOptions(blobs: BlobStore, sender: Sender, request: SendRequest, identity: MessageIdentity, delivery: Delivery): Mail.Options {
  const from = fromAddressOf(sender, request);
  return {
    from: { name: request.fromName ?? sender.displayName, address: from },
    to: delivery.headerTo,
    cc: delivery.headerCc.length > 0 ? delivery.headerCc : undefined,
    envelope: { from, to: delivery.recipients },
    subject: request.subject,
    text: request.text,
    html: delivery.receiptPixelUrl ? withPixel(request, delivery.receiptPixelUrl) : request.html,
    priority: request.important ? 'high' : 'normal',
    messageId: identity.messageId,
    date: identity.date,
    // A forward is no answer, but its References keep it in the original's conversation.
    inReplyTo: request.answering && request.answering.mode !== 'forward' ? request.answering.messageId : undefined,
    references: request.answering?.references,
    ...(request.autoSubmitted ? { headers: { 'Auto-Submitted': request.autoSubmitted } } : {}),
    attachments: request.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: attachmentContent(blobs, attachment),
      ...(attachment.contentId ? { cid: attachment.contentId } : {}),
      contentDisposition: attachment.inline ? 'inline' : 'attachment',
    })),
  };
}

/** An uploaded file as stored; a forwarded part decoded from its range of the original, as it streams. */
function attachmentContent(blobs: BlobStore, attachment: SendAttachment): Readable {
  if (!attachment.part) return blobs.createReadStream(attachment.storageKey);
  const { start, end, encoding } = attachment.part;
  return pipeline(blobs.createReadStream(attachment.storageKey, { start, end }), createTransferDecoder(encoding), () => undefined);
}

/** The copy kept in the sender's Sent mailbox: every recipient, Bcc included, no pixel. */
export function sentCopyOptions(blobs: BlobStore, sender: Sender, request: SendRequest, identity: MessageIdentity): Mail.Options {
  return {
    ...messageOptions(blobs, sender, request, identity, { recipients: [], headerTo: request.to, headerCc: request.cc }),
    bcc: request.bcc.length > 0 ? request.bcc : undefined,
    envelope: undefined,
  };
}

function withPixel(request: SendRequest, pixelUrl: string): string {
  const pixel = `<img src="${escapeHtml(pixelUrl)}" width="1" height="1" alt="" style="display:none">`;
  const body = request.html ?? `<div style="white-space:pre-wrap">${escapeHtml(request.text ?? '')}</div>`;
  return /<\/body>/i.test(body) ? body.replace(/<\/body>/i, `${pixel}</body>`) : body + pixel;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
