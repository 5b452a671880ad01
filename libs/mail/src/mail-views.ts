import { z } from 'zod';
import { mailAuthenticationSchema, type MailAuthentication } from '@letterbox/mail-auth';
import type { MailAddress, MailLayout } from '@letterbox/mime';
import { spamVerdictSchema, type SpamVerdict } from './spam-verdict';

/*
 * How the API shows mail: shared by the list, the detail, the conversations and their tests,
 * and, through the read API's OpenAPI document, by the webmail. Each id names an OpenAPI component.
 */

export const mailAddressSchema = z.object({ name: z.string(), address: z.string() }).meta({ id: 'MailAddress' });

/** What a list row names of a mail's recipients: a mail to ten thousand people made a page of hundreds of KB. */
export const LISTED_RECIPIENTS = 3;

export const attachmentViewSchema = z
  .object({
    partId: z.string(),
    filename: z.string(),
    contentType: z.string(),
    disposition: z.enum(['attachment', 'inline']),
    contentId: z.string().nullable(),
    size: z.int(),
  })
  .meta({ id: 'Attachment' });
export type AttachmentView = z.infer<typeof attachmentViewSchema>;

export const receiptViewSchema = z.object({ email: z.string(), firstReadAt: z.string().nullable(), readCount: z.int() }).meta({ id: 'Receipt' });
export type ReceiptView = z.infer<typeof receiptViewSchema>;

/** A piece of a hit's body with where the searched words are in it, as [start, end) offsets into `text`. */
export const searchHighlightSchema = z.object({ text: z.string(), marks: z.array(z.array(z.int()).length(2)) }).meta({ id: 'SearchHighlight' });
export type SearchHighlight = z.infer<typeof searchHighlightSchema>;

export const mailSummarySchema = z
  .object({
    id: z.int(),
    mailboxId: z.int(),
    threadId: z.int(),
    messageId: z.string(),
    from: mailAddressSchema,
    /** The first of To, then Cc, at most LISTED_RECIPIENTS; the detail has them all. */
    recipients: z.array(mailAddressSchema).max(LISTED_RECIPIENTS),
    /** All of To and Cc. */
    recipientCount: z.int(),
    subject: z.string(),
    snippet: z.string(),
    receivedAt: z.iso.datetime(),
    size: z.int(),
    seen: z.boolean(),
    flagged: z.boolean(),
    important: z.boolean(),
    /** $Answered: the user replied to it. */
    answered: z.boolean(),
    /** $Forwarded: the user forwarded it. */
    forwarded: z.boolean(),
    hasAttachments: z.boolean(),
    /** Only when the list is asked `with=attachments`. */
    attachments: z.array(attachmentViewSchema).optional(),
    /** Only when the list is asked `with=receipt_confirm`. */
    receiptConfirm: z.array(receiptViewSchema).optional(),
    /** A full-text search hit's body around the words searched for. */
    highlight: searchHighlightSchema.optional(),
  })
  .meta({ id: 'MailSummary' });
export type MailSummary = z.infer<typeof mailSummarySchema>;

/** Headers, text, sanitized HTML (`cid:` images pointing at the attachment routes) and each attachment's download address. */
export const mailDetailSchema = mailSummarySchema
  .omit({ attachments: true, receiptConfirm: true, highlight: true })
  .extend({
    to: z.array(mailAddressSchema),
    cc: z.array(mailAddressSchema),
    headers: z.array(z.object({ name: z.string(), value: z.string() })),
    text: z.string(),
    html: z.string().nullable(),
    /** A body part was longer than a read shows; the raw message has it all. */
    truncated: z.boolean(),
    attachments: z.array(attachmentViewSchema.extend({ url: z.string() })),
    /** What the intake's checks found of its sender; null for mail not received from outside, or received before checks were made. */
    authentication: mailAuthenticationSchema.nullable(),
    /** rspamd's verdict; null for mail not received from outside, or not scored (rspamd slow or down, the message too large). */
    spam: spamVerdictSchema.nullable(),
  })
  .meta({ id: 'MailDetail' });
export type MailDetail = z.infer<typeof mailDetailSchema>;

export const mailPageSchema = z
  .object({
    items: z.array(mailSummarySchema),
    /** Counted up to MAX_COUNTED when the mailbox counters cannot answer; a search's (q=) is the page's length. */
    total: z.int(),
    /** True when there are more than `total`: a count stops at MAX_COUNTED, a search's at its page. */
    totalCapped: z.boolean().optional(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'MailPage' });
export type MailListPage = z.infer<typeof mailPageSchema>;

/** A conversation as the collapsed list shows it: its newest matching mail and what it holds. */
export const threadSummarySchema = z
  .object({
    threadId: z.int(),
    /** The thread's newest mail that matches the filter; the list is ordered by it. */
    latest: mailSummarySchema,
    messageCount: z.int(),
    unreadCount: z.int(),
    hasAttachments: z.boolean(),
    /** Senders, oldest first, at most MAX_PARTICIPANTS. */
    participants: z.array(mailAddressSchema),
  })
  .meta({ id: 'ThreadSummary' });
export type ThreadSummary = z.infer<typeof threadSummarySchema>;

export const threadPageSchema = z.object({ items: z.array(threadSummarySchema), nextCursor: z.string().nullable() }).meta({ id: 'ThreadPage' });
export type ThreadListPage = z.infer<typeof threadPageSchema>;

/** A conversation's messages, oldest first. */
export const threadSchema = z.object({ threadId: z.int(), messages: z.array(mailSummarySchema) }).meta({ id: 'Thread' });

export const mailboxViewSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    role: z.string(),
    locked: z.boolean(),
    /** Not shown for a locked mailbox. */
    totalCount: z.int().nullable(),
    unreadCount: z.int().nullable(),
  })
  .meta({ id: 'Mailbox' });
export type MailboxView = z.infer<typeof mailboxViewSchema>;

export const mailboxListSchema = z.object({ items: z.array(mailboxViewSchema) }).meta({ id: 'MailboxList' });

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

const FIRST_LISTED = `'$[0 to ${LISTED_RECIPIENTS - 1}]'`;

/**
 * Columns every summary query selects, in the shape mapSummaryRow reads. The recipients listed
 * are taken by index, a few elements of each array, and counted from the arrays' headers: a
 * row's work and size stay the same however many recipients it has.
 */
export const SUMMARY_COLUMNS = `m.id, m.mailbox_id, m.thread_id, m.message_id, m.from_address, m.from_name,
  jsonb_path_query_array(jsonb_path_query_array(m.to_addresses, ${FIRST_LISTED}) || jsonb_path_query_array(m.cc_addresses, ${FIRST_LISTED}), ${FIRST_LISTED}) AS listed_recipients,
  jsonb_array_length(m.to_addresses) + jsonb_array_length(m.cc_addresses) AS recipient_count,
  m.subject, m.snippet, m.received_at, m.size, m.seen, m.flagged, m.important, m.answered, m.forwarded, m.has_attachments`;

export interface SummaryRow {
  id: string;
  mailbox_id: number;
  thread_id: string;
  message_id: string;
  from_address: string;
  from_name: string;
  listed_recipients: MailAddress[];
  recipient_count: number;
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
    recipients: row.listed_recipients,
    recipientCount: row.recipient_count,
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
  to: MailAddress[];
  cc: MailAddress[];
  storageKey: string;
  layout: MailLayout;
  mailboxLocked: boolean;
  attachments: Array<AttachmentView & { encoding: string; bodyStart: number; bodyEnd: number }>;
  authentication: MailAuthentication | null;
  spam: SpamVerdict | null;
}
