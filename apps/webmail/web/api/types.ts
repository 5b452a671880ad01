/** What the read and send APIs answer, as the webmail uses it. */

export interface Address {
  name: string;
  address: string;
}

export interface User {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
}

export interface Session {
  accessToken: string;
  expiresAt: string;
  user: User;
}

export interface Mailbox {
  id: number;
  name: string;
  role: string;
  locked: boolean;
  totalCount: number | null;
  unreadCount: number | null;
}

export interface Receipt {
  email: string;
  firstReadAt: string | null;
  readCount: number;
}

export interface AttachmentInfo {
  partId: string;
  filename: string;
  contentType: string;
  disposition: 'attachment' | 'inline';
  contentId: string | null;
  size: number;
}

/** Where a search hit's words are in `text`: [start, end) offsets. */
export interface Highlight {
  text: string;
  marks: Array<[number, number]>;
}

export interface MailSummary {
  id: number;
  mailboxId: number;
  threadId: number;
  messageId: string;
  from: Address;
  to: Address[];
  cc: Address[];
  subject: string;
  snippet: string;
  receivedAt: string;
  size: number;
  seen: boolean;
  flagged: boolean;
  important: boolean;
  answered: boolean;
  forwarded: boolean;
  hasAttachments: boolean;
  receiptConfirm?: Receipt[];
  highlight?: Highlight;
}

export interface MailDetail extends MailSummary {
  headers: Array<{ name: string; value: string }>;
  text: string;
  html: string | null;
  truncated: boolean;
  attachments: Array<AttachmentInfo & { url: string }>;
}

export interface MailPage {
  items: MailSummary[];
  total: number;
  totalCapped?: boolean;
  nextCursor: string | null;
}

export interface ThreadSummary {
  threadId: number;
  latest: MailSummary;
  messageCount: number;
  unreadCount: number;
  hasAttachments: boolean;
  participants: Address[];
}

export interface ThreadPage {
  items: ThreadSummary[];
  nextCursor: string | null;
}

export type AnswerMode = 'reply' | 'replyAll' | 'forward';

/** A draft as the send API keeps it; its version is what the next save must name. */
export interface ServerDraft {
  id: number;
  version: number;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  requestReadReceipt: boolean;
  attachments: Array<{ id: string; filename: string; contentType: string; size: number }>;
  answering: { mailId: number; mode: AnswerMode } | null;
}

export interface Contact {
  address: string;
  name: string;
}

export type SendStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

export interface SendView {
  id: number;
  status: SendStatus;
  attempts: number;
  lastError: string | null;
  requestedAt: string;
  scheduledAt: string | null;
  startedAt: string | null;
  sentAt: string | null;
  sentMailId: number | null;
  statusUrl?: string;
}

export interface MailChanges {
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
  mailboxId?: number;
}
