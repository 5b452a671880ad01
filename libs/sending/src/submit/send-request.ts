import { z } from 'zod';

/** An attachment of a send, in blob storage: uploaded with it, or a part of a mail it forwards. */
const sendAttachmentSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  storageKey: z.string(),
  size: z.number(),
  /** A forwarded part: where its encoded bytes lie in the stored message, and how to decode them. Nothing is copied. */
  part: z.object({ start: z.number(), end: z.number(), encoding: z.string() }).optional(),
  /** An inline image's Content-ID, which the HTML body refers to as cid:. */
  contentId: z.string().optional(),
  inline: z.boolean().optional(),
});
export type SendAttachment = z.infer<typeof sendAttachmentSchema>;

export const ANSWER_MODES = ['reply', 'replyAll', 'forward'] as const;
export type AnswerMode = (typeof ANSWER_MODES)[number];

/** The mail a send answers or forwards, and what its headers say of it. */
const answeredMailSchema = z.object({
  mailId: z.number(),
  mode: z.enum(ANSWER_MODES),
  /** The original's Message-ID: In-Reply-To of a reply. */
  messageId: z.string(),
  /** The conversation's Message-IDs, the original's last. */
  references: z.array(z.string()),
});
export type AnsweredMail = z.infer<typeof answeredMailSchema>;

/**
 * A message sent on unchanged (a rule's `redirect`, or a bounce of one going back to its sender): its stored
 * bytes with a trace header first, from an envelope sender of its own (an SRS address, or the null sender).
 */
const redirectedMessageSchema = z.object({
  storageKey: z.string(),
  size: z.number(),
  /** The header block prepended, each line ending in CRLF. */
  trace: z.string(),
  envelopeFrom: z.string(),
  /** The original envelope sender, told in a bounce (DSN) when the message is refused for good; absent: no one is told. */
  bounceTo: z.string().optional(),
});
export type RedirectedMessage = z.infer<typeof redirectedMessageSchema>;

/**
 * A message a mail client submitted (SMTP submission), stored as it goes out and as its Sent copy keeps it: its
 * Bcc header taken out, its Message-ID and Date added when it came without.
 */
const submittedMessageSchema = z.object({
  storageKey: z.string(),
  size: z.number(),
  /** Its Message-ID header: the send's, by which the provider is asked whether it took it. */
  messageId: z.string(),
});
export type SubmittedMessage = z.infer<typeof submittedMessageSchema>;

/**
 * A validated send, as recorded in `outbound_sends.request` and read back by the workers.
 * Its schema checks the shape of what is read back (parseRecordedRequest); what a user may
 * ask is the send API's request schema's to check.
 */
export const sendRequestSchema = z.object({
  /** The sender's own address it goes out from, lower-case, one of their aliases or their primary; absent: the primary. */
  from: z.string().optional(),
  /** The name that address shows, when it has its own (an identity's); absent: the sender's. */
  fromName: z.string().optional(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  text: z.string().optional(),
  html: z.string().optional(),
  important: z.boolean(),
  /** Keep a copy in the sender's Sent mailbox. */
  saveCopy: z.boolean(),
  /** One message per recipient, each seeing only themselves. */
  sendSeparately: z.boolean(),
  requestReadReceipt: z.boolean(),
  /** ISO time to send at; absent: now. */
  sendAt: z.string().optional(),
  attachments: z.array(sendAttachmentSchema),
  answering: answeredMailSchema.optional(),
  /** An automatic reply (RFC 3834): its Auto-Submitted header tells other responders never to answer it. */
  autoSubmitted: z.literal('auto-replied').optional(),
  /** The send is this message, not one composed of the fields above (which only describe it: its subject, its recipient). */
  redirect: redirectedMessageSchema.optional(),
  /**
   * The send is this message, written by the user's mail client, not one composed of the fields above (which
   * describe it: its From, its recipients from the envelope, its subject). Sent from the send's bounce address.
   */
  submitted: submittedMessageSchema.optional(),
});
export type SendRequest = z.infer<typeof sendRequestSchema>;

export interface Sender {
  userId: number;
  officeId: number;
  email: string;
  displayName: string;
}

/** The address a send goes out from: the one the sender chose, or their primary. */
export function fromAddressOf(sender: Pick<Sender, 'email'>, request: Pick<SendRequest, 'from'>): string {
  return request.from ?? sender.email;
}

export function recipientsOf(request: Pick<SendRequest, 'to' | 'cc' | 'bcc'>): string[] {
  return [...new Set([...request.to, ...request.cc, ...request.bcc].map((address) => address.toLowerCase()))];
}
