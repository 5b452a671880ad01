import type { Pool } from 'pg';
import type { PreparedMail } from '@letterbox/mail';
import type { InboundMessageJob } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import type { InboundMailRow, StoredInboundMail } from './inbound-batch-insert';
import { insertInboundInPieces, type ReportUnstorable } from './inbound-batch-pieces';
import type { IngestedMessages } from './ingested-messages';
import type { IntakeSpool } from './intake-spool';
import { prepareAccepted, readSpooled } from './prepare-accepted';

export interface IngestOutcome {
  /** Recipients whose inbox got the message now. */
  stored: number;
  /** Recipients who had it already (a redelivery, or an earlier attempt of this one). */
  duplicates: number;
}

/** Tells the world about stored mail (push notifications, live events); must be safe to repeat. */
export type AnnounceStoredMail = (mails: StoredInboundMail[]) => Promise<void>;

/**
 * Stores a batch of accepted incoming messages as mail, each once per recipient: Redis
 * skips known duplicates, the message files are read (outside any transaction), one
 * statement inserts the rest, and only then is the batch announced and its jobs complete.
 * A message the intake spooled is put into blob storage first (each put durable), so no
 * mail refers to a blob not on disk.
 * A crash anywhere before that leaves the jobs to be retried, and the retry stores nothing
 * twice. A message that cannot be read fails alone; one whose values cannot be stored is
 * stored bare; the rest of its batch goes on.
 */
export class InboundBatchStore {
  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
    private readonly ingested: IngestedMessages,
    private readonly announce: AnnounceStoredMail,
    private readonly reportUnstorable: ReportUnstorable,
    private readonly spool?: IntakeSpool,
  ) {}

  async store(payloads: InboundMessageJob[]): Promise<Array<IngestOutcome | Error>> {
    const pairs = payloads.flatMap((payload, index) =>
      payload.recipientIds.map((userId) => ({ index, userId, dedupKey: payload.dedupKey ?? payload.messageId })),
    );
    const storedBy = await this.ingested.storedBy(pairs);
    const claimed = new Set<string>();
    const fresh = pairs.filter((pair, position) => {
      const key = `${pair.userId} ${pair.dedupKey}`;
      const elsewhere = storedBy[position] !== null && storedBy[position] !== payloads[pair.index].inboundId;
      if (elsewhere || claimed.has(key)) return false;
      claimed.add(key);
      return true;
    });
    const prepared = await this.prepare(payloads, new Set(fresh.map((pair) => pair.index)));
    const rows: InboundMailRow[] = fresh.flatMap(({ index, userId, dedupKey }) => {
      const mail = prepared.get(index);
      if (!mail || mail instanceof Error) return [];
      const { inboundId, messageId, receivedAt } = payloads[index];
      return [{ inboundId, userId, dedupKey, messageId, receivedAt: new Date(receivedAt), prepared: mail }];
    });
    const stored = await insertInboundInPieces(this.sql, rows, this.reportUnstorable);
    await this.ingested.remember(rows);
    await this.announce(stored);
    return payloads.map((payload, index) => {
      const failure = prepared.get(index);
      if (failure instanceof Error) return failure;
      const storedNow = stored.filter((mail) => mail.inboundId === payload.inboundId && mail.storedNow).length;
      return { stored: storedNow, duplicates: payload.recipientIds.length - storedNow };
    });
  }

  /** Reads each message once, however many recipients it has, putting it into blob storage first if spooled. */
  private async prepare(payloads: InboundMessageJob[], indexes: Set<number>): Promise<Map<number, PreparedMail | Error>> {
    const chosen = [...indexes];
    const spooled = await readSpooled(chosen.map((index) => payloads[index]), this.spool);
    const entries = await Promise.all(
      chosen.map(async (index, position) => {
        const mail = await prepareAccepted(payloads[index], spooled[position], this.blobs).catch((error: unknown) => error as Error);
        return [index, mail] as const;
      }),
    );
    return new Map(entries);
  }
}
