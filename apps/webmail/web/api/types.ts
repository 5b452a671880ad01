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

export interface MailSummary {
  id: number;
  mailboxId: number;
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
  hasAttachments: boolean;
  receiptConfirm?: Receipt[];
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
  nextCursor: string | null;
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
