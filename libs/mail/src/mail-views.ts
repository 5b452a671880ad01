import type { MailAddress, MailLayout } from '@letterbox/mime';
import type { SearchHighlight } from './search/search-highlight';

/** How the API shows mail; shared by the list, the detail and their tests. */
export interface MailSummary {
  id: number;
  mailboxId: number;
  threadId: number;
  messageId: string;
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  snippet: string;
  receivedAt: string;
  size: number;
  seen: boolean;
  flagged: boolean;
  important: boolean;
  /** $Answered: the user replied to it. */
  answered: boolean;
  /** $Forwarded: the user forwarded it. */
  forwarded: boolean;
  hasAttachments: boolean;
  attachments?: AttachmentView[];
  receiptConfirm?: ReceiptView[];
  /** A full-text search hit's body around the words searched for. */
  highlight?: SearchHighlight;
}

export interface AttachmentView {
  partId: string;
  filename: string;
  contentType: string;
  disposition: 'attachment' | 'inline';
  contentId: string | null;
  size: number;
}

export interface ReceiptView {
  email: string;
  firstReadAt: string | null;
  readCount: number;
}

export interface MailboxView {
  id: number;
  name: string;
  role: string;
  locked: boolean;
  /** Not shown for a locked mailbox. */
  totalCount: number | null;
  unreadCount: number | null;
}

/** A mailboxes row as SQL gives it. */
export interface MailboxRow {
  id: number;
  name: string;
  role: string;
  locked: boolean;
  total_count: number;
  unread_count: number;
}

export const MAILBOX_COLUMNS = 'id, name, role, locked, total_count, unread_count';

export function mapMailboxRow(row: MailboxRow): MailboxView {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    locked: row.locked,
    totalCount: row.locked ? null : row.total_count,
    unreadCount: row.locked ? null : row.unread_count,
  };
}

/** Columns every summary query selects, in the shape mapSummaryRow reads. */
export const SUMMARY_COLUMNS = `m.id, m.mailbox_id, m.thread_id, m.message_id, m.from_address, m.from_name, m.to_addresses,
  m.cc_addresses, m.subject, m.snippet, m.received_at, m.size, m.seen, m.flagged, m.important, m.answered, m.forwarded, m.has_attachments`;

export interface SummaryRow {
  id: string;
  mailbox_id: number;
  thread_id: string;
  message_id: string;
  from_address: string;
  from_name: string;
  to_addresses: MailAddress[];
  cc_addresses: MailAddress[];
  subject: string;
  snippet: string;
  received_at: Date;
  size: number;
  seen: boolean;
  flagged: boolean;
  important: boolean;
  answered: boolean;
  forwarded: boolean;
  has_attachments: boolean;
}

export function mapSummaryRow(row: SummaryRow): MailSummary {
  return {
    id: Number(row.id),
    mailboxId: row.mailbox_id,
    threadId: Number(row.thread_id),
    messageId: row.message_id,
    from: { name: row.from_name, address: row.from_address },
    to: row.to_addresses,
    cc: row.cc_addresses,
    subject: row.subject,
    snippet: row.snippet,
    receivedAt: row.received_at.toISOString(),
    size: row.size,
    seen: row.seen,
    flagged: row.flagged,
    important: row.important,
    answered: row.answered,
    forwarded: row.forwarded,
    hasAttachments: row.has_attachments,
  };
}

/** A mail row as the detail, raw and attachment routes need it. */
export interface MailRecord extends MailSummary {
  storageKey: string;
  layout: MailLayout;
  mailboxLocked: boolean;
  attachments: Array<AttachmentView & { encoding: string; bodyStart: number; bodyEnd: number }>;
}
