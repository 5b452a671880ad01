import type { SendStatus } from '@letterbox/db';

/** What a user is shown of a send. */
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
}

interface SendRow {
  id: bigint;
  status: SendStatus;
  attempts: number;
  lastError: string | null;
  requestedAt: Date;
  scheduledAt: Date | null;
  startedAt: Date | null;
  sentAt: Date | null;
  sentMailId: bigint | null;
}

export function sendView(row: SendRow): SendView {
  return {
    id: Number(row.id),
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    requestedAt: row.requestedAt.toISOString(),
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    startedAt: row.startedAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    sentMailId: row.sentMailId === null ? null : Number(row.sentMailId),
  };
}

/** The columns a raw statement returns for sendViewOfRecord. */
export const SEND_RECORD_COLUMNS = 'id, status, attempts, last_error, requested_at, scheduled_at, started_at, sent_at, sent_mail_id';

export interface SendRecordRow {
  id: string;
  status: SendStatus;
  attempts: number;
  last_error: string | null;
  requested_at: Date;
  scheduled_at: Date | null;
  started_at: Date | null;
  sent_at: Date | null;
  sent_mail_id: string | null;
}

export function sendViewOfRecord(row: SendRecordRow): SendView {
  return sendView({
    id: BigInt(row.id),
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    requestedAt: row.requested_at,
    scheduledAt: row.scheduled_at,
    startedAt: row.started_at,
    sentAt: row.sent_at,
    sentMailId: row.sent_mail_id === null ? null : BigInt(row.sent_mail_id),
  });
}
