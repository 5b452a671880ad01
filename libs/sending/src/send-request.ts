/** An attachment of a send, in blob storage: uploaded with it, or a part of a mail it forwards. */
export interface SendAttachment {
  filename: string;
  contentType: string;
  storageKey: string;
  size: number;
  /** A forwarded part: where its encoded bytes lie in the stored message, and how to decode them. Nothing is copied. */
  part?: { start: number; end: number; encoding: string };
  /** An inline image's Content-ID, which the HTML body refers to as cid:. */
  contentId?: string;
  inline?: boolean;
}

export const ANSWER_MODES = ['reply', 'replyAll', 'forward'] as const;
export type AnswerMode = (typeof ANSWER_MODES)[number];

/** The mail a send answers or forwards, and what its headers say of it. */
export interface AnsweredMail {
  mailId: number;
  mode: AnswerMode;
  /** The original's Message-ID: In-Reply-To of a reply. */
  messageId: string;
  /** The conversation's Message-IDs, the original's last. */
  references: string[];
}

/** A validated send, as recorded in `outbound_sends.request` and read back by the worker. */
export interface SendRequest {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text?: string;
  html?: string;
  important: boolean;
  /** Keep a copy in the sender's Sent mailbox. */
  saveCopy: boolean;
  /** One message per recipient, each seeing only themselves. */
  sendSeparately: boolean;
  requestReadReceipt: boolean;
  /** ISO time to send at; absent: now. */
  sendAt?: string;
  attachments: SendAttachment[];
  answering?: AnsweredMail;
}

export interface Sender {
  userId: number;
  officeId: number;
  email: string;
  displayName: string;
}

export function recipientsOf(request: SendRequest): string[] {
  return [...new Set([...request.to, ...request.cc, ...request.bcc].map((address) => address.toLowerCase()))];
}
