import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { correspondentKey, writtenToAmong, type SpamVerdict } from '@letterbox/mail';
import { spamChecksTotal } from '@letterbox/observability';
import type { BlobStore } from '@letterbox/storage';
import type { RspamdScanner } from '../../spam/rspamd-scanner';
import { isSpamByScore } from '../../spam/spam-folder';
import type { IngestBatch, IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Has rspamd score each message from outside (colleagues' mail is not scored), all of the
 * batch's at once within the scanner's concurrency and timeout, and records its verdict and
 * the recipients whose Spam it goes to: all of them when its action is `add header` or above,
 * but for those who have written to its sender. A message larger than `maxBytes`, or one
 * rspamd did not answer for in time, is stored unscored, in the inbox; nothing here fails a
 * message. Parsed before, so its bytes are in blob storage, read from there.
 */
export class SpamStage implements IngestStage {
  readonly name = 'spam';

  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
    private readonly scanner: RspamdScanner,
    private readonly maxBytes: number,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.prepared && item.recipients.length > 0 && item.message.peer);
    const verdicts = await Promise.all(items.map((item) => this.score(item)));
    const scored = items.flatMap((item, position) => {
      const verdict = verdicts[position];
      return verdict ? [{ item, verdict }] : [];
    });
    const spam = scored.filter(({ verdict }) => isSpamByScore(verdict));
    const writtenTo = await writtenToAmong(
      this.sql,
      spam.flatMap(({ item }) => {
        const sender = item.prepared?.summary.from?.address;
        return sender ? item.recipients.map(({ userId }) => ({ userId, address: sender })) : [];
      }),
    );
    for (const { item, verdict } of scored) {
      const sender = item.prepared?.summary.from?.address ?? '';
      const spamFor = isSpamByScore(verdict)
        ? item.recipients.map(({ userId }) => userId).filter((userId) => !writtenTo.has(correspondentKey(userId, sender)))
        : [];
      item.spam = { verdict, spamFor: new Set(spamFor) };
    }
  }

  private async score(item: IngestItem): Promise<SpamVerdict | undefined> {
    const { message } = item;
    if (message.size > this.maxBytes) {
      spamChecksTotal.inc({ outcome: 'too-large' });
      return undefined;
    }
    const peer = message.peer;
    const bytes = await this.blobs.readRanges(message.storageKey, [{ start: 0, end: message.size }]).then(
      ([read]) => read,
      (error: unknown) =>
        void this.logger.warn({ inboundId: message.inboundId, err: error }, `${message.inboundId} stored unscored: its bytes could not be read`),
    );
    if (!bytes || !peer) return undefined;
    return this.scanner.check(bytes, { queueId: message.inboundId, ip: peer.ip, helo: peer.helo, mailFrom: peer.mailFrom, rcptTo: peer.rcptTo });
  }
}
