import { z } from 'zod';
import type { SendStatus } from '@letterbox/db';

const SEND_STATUSES = ['queued', 'sending', 'sent', 'failed', 'cancelled'] as const satisfies readonly SendStatus[];

/** What a user is shown of a send; the send API's OpenAPI component `Send`. */
export const sendViewSchema = z
  .object({
    id: z.int(),
    status: z.enum(SEND_STATUSES),
    attempts: z.int(),
    lastError: z.string().nullable(),
    requestedAt: z.iso.datetime(),
    scheduledAt: z.iso.datetime().nullable(),
    startedAt: z.iso.datetime().nullable(),
    sentAt: z.iso.datetime().nullable(),
    sentMailId: z
      .int()
      .nullable()
      .describe(
        'The Sent copy: its mail id is given at once, and the mail is there once the ingest worker has stored it, which a send with read receipts waits for before it goes out.',
      ),
  })
  .meta({ id: 'Send' });
export type SendView = z.infer<typeof sendViewSchema>;

/** What became of each recipient of a send; the send API's OpenAPI component `SendRecipient`. */
export const RECIPIENT_STATUSES = ['queued', 'sent', 'delayed', 'bounced', 'suppressed', 'failed'] as const;
export const sendRecipientSchema = z
  .object({
    address: z.string(),
    status: z.enum(RECIPIENT_STATUSES),
    diagnostic: z
      .string()
      .optional()
      .describe("The remote server's reply or report (`550 5.1.1 user unknown`), for a recipient that bounced, was delayed, suppressed or failed."),
    at: z.iso.datetime(),
  })
  .meta({ id: 'SendRecipient' });
export type SendRecipientView = z.infer<typeof sendRecipientSchema>;

/** A send with what became of each recipient: `GET /v2/mails/send/:id` and its cancel. */
export const sendStatusSchema = sendViewSchema.extend({ recipients: z.array(sendRecipientSchema) }).meta({ id: 'SendStatus' });
export type SendStatusView = z.infer<typeof sendStatusSchema>;

/** A send waiting for the time it was scheduled at, as the list of them shows it; the send API's OpenAPI component `ScheduledSend`. */
export const scheduledSendSchema = sendViewSchema
  .extend({ subject: z.string(), to: z.array(z.string()).describe('Its recipients: To, Cc and Bcc.') })
  .meta({ id: 'ScheduledSend' });
export type ScheduledSendView = z.infer<typeof scheduledSendSchema>;

export const scheduledSendListSchema = z.object({ items: z.array(scheduledSendSchema) }).meta({ id: 'ScheduledSendList' });

/**
 * A send just made (or found again by its idempotency key): its recipients as they stand at
 * submission (`queued`, or `suppressed` at once), and where to ask for what becomes of them.
 */
export const submittedSendSchema = sendStatusSchema.extend({ statusUrl: z.string() }).meta({ id: 'SubmittedSend' });

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
  return {
    id: Number(row.id),
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    requestedAt: row.requested_at.toISOString(),
    scheduledAt: row.scheduled_at?.toISOString() ?? null,
    startedAt: row.started_at?.toISOString() ?? null,
    sentAt: row.sent_at?.toISOString() ?? null,
    sentMailId: row.sent_mail_id === null ? null : Number(row.sent_mail_id),
  };
}
