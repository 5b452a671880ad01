import type { Database } from '@letterbox/db';
import { BatchCollector, type BatchLimits } from '@letterbox/queue';
import { findByIdempotencyKey, fingerprintOf, prepareSendRecord, type RecordOptions } from './record-send';
import { insertSendBatch, type SendRecordInput } from './send-batch-insert';
import { writeGroup } from '../row-errors';
import { SEND_GROUP_COMMIT } from './send-group-commit';
import type { Sender, SendRequest } from './send-request';
import type { SendView } from './send-view';

/**
 * Records sends, many requests' at once: the rows of every send in a group are written by
 * one statement (group commit), and each Sent copy is left to the ingest worker. Each
 * request is answered only once its own send has committed, and is told its own failure: a
 * group refused for one send's data is written again send by send. The same idempotency
 * key gives back the first send.
 */
export class SendRecords {
  private readonly inserts: BatchCollector<SendRecordInput, SendView | undefined>;

  constructor(
    private readonly db: Database,
    limits: BatchLimits = SEND_GROUP_COMMIT,
  ) {
    this.inserts = new BatchCollector((items) => this.insertGroup(items), limits);
  }

  async record(sender: Sender, request: SendRequest, options: RecordOptions): Promise<{ send: SendView; created: boolean }> {
    const { idempotencyKey } = options;
    if (idempotencyKey) {
      const existing = await findByIdempotencyKey(this.db.sql, sender.userId, idempotencyKey, fingerprintOf(request));
      if (existing) return { send: existing, created: false };
    }
    const send = await this.inserts.add(prepareSendRecord(sender, request, options));
    if (send) return { send, created: true };
    // The same key raced in from a concurrent request; its send is the answer.
    return { send: (await findByIdempotencyKey(this.db.sql, sender.userId, idempotencyKey as string, fingerprintOf(request))) as SendView, created: false };
  }

  private insertGroup(items: SendRecordInput[]): Promise<Array<SendView | undefined | Error>> {
    return writeGroup(items, (group) => insertSendBatch(this.db, group));
  }
}
