/** The columns of the read API's mail summaries, so the naive routes send the same JSON. */
export const SUMMARY_COLUMNS = `m.id, m.mailbox_id, m.message_id, m.from_address, m.from_name, m.to_addresses, m.cc_addresses,
  m.subject, m.snippet, m.received_at, m.size, m.seen, m.flagged, m.important, m.has_attachments`;

export interface SummaryRow {
  id: string;
  mailbox_id: number;
  message_id: string;
  from_address: string;
  from_name: string;
  to_addresses: unknown;
  cc_addresses: unknown;
  subject: string;
  snippet: string;
  received_at: Date;
  size: number;
  seen: boolean;
  flagged: boolean;
  important: boolean;
  has_attachments: boolean;
}

/** The read API's summary JSON, made the same way. */
export function summaryOf(row: SummaryRow) {
  return {
    id: Number(row.id),
    mailboxId: row.mailbox_id,
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
    hasAttachments: row.has_attachments,
  };
}
