import type { PoolClient } from 'pg';
import { namedStatement } from '@letterbox/db';
import { QuotaExceededError } from './send-errors';
import type { Sender, SendRequest } from './submit/send-request';

/** What a send is checked against: the deployment's quota for users without one of their own, and what the message will take. */
export interface SendQuota {
  defaultBytes: number;
  messageBytes: number;
}

/** Room for the header block a composed message gets beyond its recipients and subject (From, Date, Message-ID, MIME boundaries). */
const HEADER_ALLOWANCE_BYTES = 2048;

/**
 * What a message will take in storage, told before it is composed (its Sent copy is
 * composed later, by the ingest worker): a submitted message's own size; attachments base64-encoded in lines of 76, its
 * bodies, its headers. The copy's exact size is what usage counts once it is stored.
 */
export function estimatedMessageBytes(request: SendRequest): number {
  if (request.submitted) return request.submitted.size;
  const attachments = request.attachments.reduce((sum, attachment) => sum + base64Bytes(attachment.size), 0);
  const bodies = Buffer.byteLength(request.text ?? '') + Buffer.byteLength(request.html ?? '');
  const headers = Buffer.byteLength([request.subject, ...request.to, ...request.cc, ...request.bcc].join(', ')) + HEADER_ALLOWANCE_BYTES;
  return attachments + bodies + headers;
}

function base64Bytes(size: number): number {
  const encoded = Math.ceil(size / 3) * 4;
  return encoded + Math.ceil(encoded / 76) * 2;
}

const USAGE = namedStatement('sender-usage', 'SELECT used_bytes, coalesce(quota_bytes, $2) AS quota_bytes FROM users WHERE id = $1');

/**
 * Refuses, in the caller's transaction, a write that grew the user's mail by `addedBytes`
 * (a draft saved) and left it past their quota: the triggers on mails have counted the
 * write by now and hold the user's row until commit, so concurrent writes cannot both
 * slip under the quota. A write that grew nothing is never refused.
 */
export async function refuseIfPastQuota(
  client: PoolClient,
  sender: Pick<Sender, 'userId' | 'email'>,
  defaultQuotaBytes: number,
  addedBytes: number,
): Promise<void> {
  if (addedBytes <= 0) return;
  const { rows } = await client.query<{ used_bytes: string; quota_bytes: string }>({ ...USAGE, values: [sender.userId, defaultQuotaBytes] });
  const usage = rows[0];
  if (!usage) return;
  const used = Number(usage.used_bytes);
  const quota = Number(usage.quota_bytes);
  if (used > quota) throw new QuotaExceededError(sender.email, quota, used - addedBytes, addedBytes);
}
