import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { sharedMailboxCounters, sieveFolder, sieveScriptsOf, type StoredSieveScript } from '@letterbox/mail';
import { runSieve } from '@letterbox/sieve';
import type { BlobStore } from '@letterbox/storage';
import type { RecipientDirectory } from '../../recipient-directory';
import { CompiledScripts } from '../../rules/compiled-scripts';
import { sieveMessageOf } from '../../rules/sieve-message';
import { readMessageHeaders } from '../message-headers';
import { mailboxOf, type IngestBatch, type IngestItem, type RuleOutcome } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Runs each recipient's rules (their Sieve script) on the message, for the recipients whose
 * copy goes to their inbox: mail headed for Spam stays there. It records where each copy goes (a
 * folder, or nowhere: discard, reject) and the flags it gets, for the store stage. The scripts
 * of the batch's recipients are read in one statement, and each compiled once while unchanged;
 * each run is bounded in work (libs/sieve), and one whose message cannot be read, or whose
 * folder is gone, keeps the mail in the inbox: a rule never loses a mail.
 */
export class RulesStage implements IngestStage {
  readonly name = 'rules';
  private readonly compiled: CompiledScripts;

  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
    private readonly directory: RecipientDirectory,
    private readonly logger: Logger,
  ) {
    this.compiled = new CompiledScripts((userId, error) => logger.warn({ userId, err: error }, `the rules of user ${userId} no longer compile: not run`));
  }

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.prepared && item.recipients.length > 0);
    const scripts = await sieveScriptsOf(
      this.sql,
      items.flatMap((item) => inboxRecipients(item)),
    );
    if (scripts.size === 0) return;
    await Promise.all(items.map((item) => this.runFor(item, scripts)));
  }

  private async runFor(item: IngestItem, scripts: Map<number, StoredSieveScript>): Promise<void> {
    const { message, prepared } = item;
    const ruled = inboxRecipients(item).filter((userId) => scripts.has(userId));
    if (!prepared || ruled.length === 0) return;
    const headers = await readMessageHeaders(item, this.blobs, this.logger, "without its recipients' rules");
    if (!headers) return;
    const envelopeTo = await this.envelopeRecipients(message.peer?.rcptTo ?? []);
    const outcomes = new Map<number, RuleOutcome>();
    const filed: Array<{ userId: number; folder: string }> = [];
    for (const userId of ruled) {
      const program = this.compiled.programOf(userId, scripts.get(userId) as StoredSieveScript);
      if (!program) continue;
      const envelope = { from: message.peer?.mailFrom ?? '', to: envelopeTo.get(userId) ?? '' };
      const outcome = runSieve(program, sieveMessageOf(headers, prepared, envelope));
      if (outcome.exhausted)
        this.logger.warn({ inboundId: message.inboundId, userId }, `${message.inboundId}: the rules of user ${userId} used their budget; kept in the inbox`);
      const { destination } = outcome;
      const discarded = destination.kind === 'discarded';
      if (discarded) {
        const why = destination.reason === undefined ? 'discarded' : `rejected (${destination.reason.trim().slice(0, 200)})`;
        this.logger.info({ inboundId: message.inboundId, userId }, `${message.inboundId} ${why} by the rules of user ${userId}`);
      }
      if (destination.kind === 'folder') filed.push({ userId, folder: destination.name });
      outcomes.set(userId, {
        seen: outcome.flags.includes('seen'),
        flagged: outcome.flags.includes('flagged'),
        discarded,
        ...(outcome.vacation ? { vacation: outcome.vacation } : {}),
      });
    }
    // Folders by name, read only for the recipients whose rules filed the mail.
    const mailboxes = await Promise.all(filed.map(({ userId }) => sharedMailboxCounters(this.sql, userId)));
    filed.forEach(({ userId, folder }, position) => {
      const mailbox = sieveFolder(mailboxes[position], folder);
      const outcome = outcomes.get(userId);
      if (mailbox && outcome) outcome.mailboxId = mailbox.id;
      else this.logger.warn({ inboundId: message.inboundId, userId }, `${message.inboundId}: user ${userId} has no folder "${folder}" now; kept in the inbox`);
    });
    if (outcomes.size > 0) item.rules = outcomes;
  }

  /** Each recipient's address in the envelope: the first one given that reaches them (their own, an alias, a group's). */
  private async envelopeRecipients(rcptTo: string[]): Promise<Map<number, string>> {
    const { known } = await this.directory.resolve(rcptTo);
    const addressOf = new Map<number, string>();
    for (const address of rcptTo.map((given) => given.trim().toLowerCase())) {
      for (const userId of known.get(address)?.userIds ?? []) if (!addressOf.has(userId)) addressOf.set(userId, address);
    }
    return addressOf;
  }
}

function inboxRecipients(item: IngestItem): number[] {
  return item.recipients.filter(({ userId }) => mailboxOf(item, userId) === 'inbox').map(({ userId }) => userId);
}
