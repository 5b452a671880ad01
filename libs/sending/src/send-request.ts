/** An attachment uploaded with a send, already in blob storage. */
export interface SendAttachment {
  filename: string;
  contentType: string;
  storageKey: string;
  size: number;
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
