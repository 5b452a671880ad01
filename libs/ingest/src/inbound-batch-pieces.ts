import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { insertInboundBatch, type InboundMailRow, type StoredInboundMail } from './inbound-batch-insert';

/** Called for a message whose parsed values could not be stored; it was stored with what could be kept. */
export type ReportUnstorable = (row: InboundMailRow, error: Error) => void;

/**
 * Stores a batch in one statement, and when something in one message fails it (a value
 * PostgreSQL refuses, a key too long for its index), halves the batch until every good
 * message is stored and each bad one is found, all in the same attempt: one hostile
 * message never fails, delays or loses the others. A bad one was acknowledged, so it is
 * stored too, with only what can be kept (its EML is in storage, whole, to download).
 * Errors that are not the data's (the database gone) fail the batch, to be retried.
 */
export async function insertInboundInPieces(sql: Pool, rows: InboundMailRow[], report: ReportUnstorable): Promise<StoredInboundMail[]> {
  try {
    return await insertInboundBatch(sql, rows);
  } catch (error) {
    if (!isCausedByData(error)) throw error;
    if (rows.length === 1) {
      report(rows[0], error as Error);
      return insertInboundBatch(sql, [barest(rows[0])]);
    }
    const middle = Math.ceil(rows.length / 2);
    const halves = [...(await insertInboundInPieces(sql, rows.slice(0, middle), report)), ...(await insertInboundInPieces(sql, rows.slice(middle), report))];
    return distinct(halves);
  }
}

/**
 * SQLSTATE classes of errors caused by what a statement carries: data exceptions (22),
 * integrity violations (23), program limits such as an index row too large (54).
 */
function isCausedByData(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && ['22', '23', '54'].includes(code.slice(0, 2));
}

/** The message with nothing taken from its content but its size and where it is stored. */
function barest(row: InboundMailRow): InboundMailRow {
  const { prepared } = row;
  const key = prepared.blob.key;
  return {
    ...row,
    dedupKey: createHash('sha256').update(row.dedupKey).digest('base64url'),
    messageId: `<${key}@letterbox.invalid>`,
    prepared: {
      ...prepared,
      layout: { headerEnd: 0, bodies: [] },
      attachments: [],
      summary: { subject: '(a message that could not be read; download it to see it)', to: [], cc: [], bcc: [], references: [] },
      messageId: `<${key}@letterbox.invalid>`,
      snippet: '',
      bodyText: '',
    },
  };
}

/** A mail both halves name (an acceptance with recipients in each) counts once, as stored now if either stored it. */
function distinct(mails: StoredInboundMail[]): StoredInboundMail[] {
  const byRecipient = new Map<string, StoredInboundMail>();
  for (const mail of mails) {
    const key = `${mail.inboundId} ${mail.userId}`;
    const known = byRecipient.get(key);
    if (!known || (mail.storedNow && !known.storedNow)) byRecipient.set(key, mail);
  }
  return [...byRecipient.values()];
}
