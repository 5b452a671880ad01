import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { correspondentKey, senderRulesAmong, writtenToAmong, type SpamVerdict } from '@letterbox/mail';
import { spamChecksTotal } from '@letterbox/observability';
import type { BlobStore } from '@letterbox/storage';
import type { RspamdScanner } from '../../spam/rspamd-scanner';
import { isSpamByScore } from '../../spam/spam-folder';
import type { IngestBatch, IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Has rspamd score each message from outside (colleagues' mail is not scored), all of the
 * batch's at once within the scanner's concurrency and timeout, and records its verdict and
 * the recipients whose Spam it goes to: those who blocked its sender ("Block sender"), whatever
 * its score or none; and when its action is `add header` or above, all the others but those who
 * allowed its sender ("Never spam") or have written to them. A message larger than `maxBytes`,
 * or one rspamd did not answer for in time, is stored unscored; nothing here fails a message.
 * Without a scanner (SPAM_CHECK off) only the users' own rules apply. Parsed before, so its
 * bytes are in memory when they were spooled, and in blob storage otherwise.
 */
export class SpamStage implements IngestStage {
  readonly name = 'spam';

  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
    private readonly check: { scanner: RspamdScanner; maxBytes: number } | undefined,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.prepared && item.recipients.length > 0);
    const verdicts = await Promise.all(items.map((item) => this.score(item)));
    const pairsOf = (item: IngestItem) => {
      const sender = item.prepared?.summary.from?.address;
      return sender ? item.recipients.map(({ userId }) => ({ userId, address: sender })) : [];
    };
    const [rules, writtenTo] = await Promise.all([
      senderRulesAmong(this.sql, items.flatMap(pairsOf)),
      writtenToAmong(
        this.sql,
        items.flatMap((item, position) => {
          const verdict = verdicts[position];
          return verdict && isSpamByScore(verdict) ? pairsOf(item) : [];
        }),
      ),
    ]);
    items.forEach((item, position) => {
      const verdict = verdicts[position];
      const sender = item.prepared?.summary.from?.address ?? '';
      const spamFor = item.recipients
        .map(({ userId }) => userId)
        .filter((userId) => {
          const key = correspondentKey(userId, sender);
          const rule = rules.get(key);
          return rule === 'block' || (rule !== 'allow' && verdict !== undefined && isSpamByScore(verdict) && !writtenTo.has(key));
        });
      if (verdict || spamFor.length > 0) item.spam = { verdict, spamFor: new Set(spamFor) };
    });
  }

  private async score(item: IngestItem): Promise<SpamVerdict | undefined> {
    const { message } = item;
    const { peer } = message;
    if (!this.check || !peer) return undefined;
    if (message.size > this.check.maxBytes) {
      spamChecksTotal.inc({ outcome: 'too-large' });
      return undefined;
    }
    const bytes =
      item.spooled ??
      (await this.blobs.readRanges(message.storageKey, [{ start: 0, end: message.size }]).then(
        ([read]) => read,
        (error: unknown) =>
          void this.logger.warn({ inboundId: message.inboundId, err: error }, `${message.inboundId} stored unscored: its bytes could not be read`),
      ));
    if (!bytes) return undefined;
    return this.check.scanner.check(bytes, { queueId: message.inboundId, ip: peer.ip, helo: peer.helo, mailFrom: peer.mailFrom, rcptTo: peer.rcptTo });
  }
}
