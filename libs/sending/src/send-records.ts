import type { Database } from '@letterbox/db';
import { BatchCollector, type BatchLimits } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { findByIdempotencyKey, fingerprintOf, prepareSendRecord, type RecordOptions } from './record-send';
import { insertSendBatch, type SendRecordInput } from './send-batch-insert';
import { SEND_GROUP_COMMIT } from './send-group-commit';
import type { Sender, SendRequest } from './send-request';
import type { SendView } from './send-view';

/** SQLSTATE classes of a statement refused for what one of its rows holds (data exception, integrity constraint). */
const ROW_ERROR_CLASSES = new Set(['22', '23']);

/**
 * Records sends, many requests' at once. Each request's Sent copy is composed and
 * stored by the request itself, outside any transaction; the rows of every send in a
 * group are written by one statement. Each request is answered only once its own send
 * has committed, and is told its own failure: a group refused for one send's data is
 * written again send by send. The same idempotency key gives back the first send.
 */
export class SendRecords {
  private readonly inserts: BatchCollector<SendRecordInput, SendView | undefined>;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    limits: BatchLimits = SEND_GROUP_COMMIT,
  ) {
    this.inserts = new BatchCollector((items) => this.insertGroup(items), limits);
  }

  async record(sender: Sender, request: SendRequest, options: RecordOptions): Promise<{ send: SendView; created: boolean }> {
    const { idempotencyKey } = options;
    if (idempotencyKey) {
      const existing = await findByIdempotencyKey(this.db, sender.userId, idempotencyKey, fingerprintOf(request));
      if (existing) return { send: existing, created: false };
    }
    const send = await this.inserts.add(await prepareSendRecord(this.blobs, sender, request, options));
    if (send) return { send, created: true };
    // The same key raced in from a concurrent request; its send is the answer.
    return { send: (await findByIdempotencyKey(this.db, sender.userId, idempotencyKey as string, fingerprintOf(request))) as SendView, created: false };
  }

  private async insertGroup(items: SendRecordInput[]): Promise<Array<SendView | undefined | Error>> {
    try {
      return await insertSendBatch(this.db, items);
    } catch (error) {
      if (items.length === 1 || !ROW_ERROR_CLASSES.has(String((error as { code?: string }).code).slice(0, 2))) throw error;
      return Promise.all(items.map((item) => insertSendBatch(this.db, [item]).then(([send]) => send, (alone: unknown) => asError(alone))));
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
