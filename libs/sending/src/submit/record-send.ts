import { createHash, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { z } from 'zod';
import { namedStatement } from '@letterbox/db';
import { IdempotencyKeyReusedError } from '../send-errors';
import type { SendQuota } from '../storage-quota';
import { fromAddressOf, sendRequestSchema, type Sender, type SendRequest } from './send-request';
import type { SendRecordInput } from './send-batch-insert';
import { SEND_RECORD_COLUMNS, sendViewOfRecord, type SendRecordRow, type SendView } from './send-view';

/** What the worker reads back: the request and the identity every copy of it shares. */
const recordedRequestSchema = sendRequestSchema.extend({
  messageId: z.string(),
  date: z.string(),
  /** Tells a retried request (same key, same content) from a reused key. */
  fingerprint: z.string(),
});
export type RecordedRequest = z.infer<typeof recordedRequestSchema>;

/** A send's request as `outbound_sends.request` holds it, checked: a malformed one fails with what is wrong in it. */
export function parseRecordedRequest(sendId: number | string, stored: unknown): RecordedRequest {
  const parsed = recordedRequestSchema.safeParse(stored);
  if (!parsed.success) throw new Error(`send ${sendId}: its recorded request is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** How a send is recorded: under an idempotency key, for a queue namespace's outbox sweep, within the sender's quota. */
export interface RecordOptions {
  idempotencyKey?: string;
  /** The queue namespace whose outbox sweep looks after this send. */
  queuePrefix: string;
  /** What the send is checked against as it is recorded; absent: recorded whatever the sender's usage. */
  quota?: SendQuota;
}

/**
 * A send made ready to record: its identity drawn, so that recording it is one INSERT
 * among others (insertSendBatch). Its Sent copy is composed later, by the ingest worker,
 * from the recorded request (SentCopies): the request waits for neither composing nor storage.
 */
export function prepareSendRecord(sender: Sender, request: SendRequest, options: RecordOptions): SendRecordInput {
  const fingerprint = fingerprintOf(request);
  const messageId = request.submitted?.messageId ?? `<${randomUUID()}@${fromAddressOf(sender, request).split('@')[1]}>`;
  const recorded: RecordedRequest = { ...request, messageId, date: new Date().toISOString(), fingerprint };
  return { sender, idempotencyKey: options.idempotencyKey, queuePrefix: options.queuePrefix, request: recorded, quota: options.quota };
}

/** Tells a retried request (same key, same content) from a reused key. */
export function fingerprintOf(request: SendRequest): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
}

const BY_IDEMPOTENCY_KEY = namedStatement(
  'send-by-idempotency-key',
  `SELECT ${SEND_RECORD_COLUMNS}, request FROM outbound_sends WHERE user_id = $1 AND idempotency_key = $2`,
);

/** The send recorded under the key, if any; the key's reuse for another request is refused. */
export async function findByIdempotencyKey(sql: Pool, userId: number, idempotencyKey: string, fingerprint: string): Promise<SendView | undefined> {
  const { rows } = await sql.query<SendRecordRow & { request: unknown }>({ ...BY_IDEMPOTENCY_KEY, values: [userId, idempotencyKey] });
  const send = rows[0];
  if (!send) return undefined;
  if (parseRecordedRequest(send.id, send.request).fingerprint !== fingerprint) throw new IdempotencyKeyReusedError(idempotencyKey);
  return sendViewOfRecord(send);
}

const KEY_TAKEN = namedStatement('send-idempotency-key-taken', `SELECT 1 FROM outbound_sends WHERE user_id = $1 AND idempotency_key = $2`);

/** Whether a send is recorded under the key already, whatever its request. */
export async function idempotencyKeyTaken(sql: Pool, userId: number, idempotencyKey: string): Promise<boolean> {
  const { rowCount } = await sql.query({ ...KEY_TAKEN, values: [userId, idempotencyKey] });
  return (rowCount ?? 0) > 0;
}
