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
