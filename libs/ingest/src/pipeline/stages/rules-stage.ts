import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { sharedMailboxCounters, sieveFolder, sieveScriptsOf, type StoredSieveScript } from '@letterbox/mail';
import { runSieve } from '@letterbox/sieve';
import { MAX_REDIRECT_HOPS, REDIRECT_TRACE_HEADER } from '@letterbox/sending';
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
 * folder, or nowhere: discard, reject, redirect) and the flags it gets, for the store stage, and where it is redirected to. The scripts
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
    const programs = ruled.flatMap((userId) => {
      const program = this.compiled.programOf(userId, scripts.get(userId) as StoredSieveScript);
      return program ? [{ userId, program }] : [];
    });
    const ownersOf = await this.ownersOf(programs.flatMap(({ program }) => program.redirects.map(({ address }) => address)));
    const hops = headers.header(REDIRECT_TRACE_HEADER).length;
    const outcomes = new Map<number, RuleOutcome>();
    const filed: Array<{ userId: number; folder: string }> = [];
    for (const { userId, program } of programs) {
      const envelope = { from: message.peer?.mailFrom ?? '', to: envelopeTo.get(userId) ?? '' };
      const mayRedirectTo = (address: string): boolean => {
        const refusal =
          hops >= MAX_REDIRECT_HOPS
            ? `it was redirected ${hops} times already`
            : ownersOf.get(address)?.includes(userId)
              ? 'it is their own address'
              : undefined;
        if (refusal)
          this.logger.warn(
            { inboundId: message.inboundId, userId },
            `${message.inboundId}: not redirected to ${address} by the rules of user ${userId}: ${refusal}; kept`,
          );
        return refusal === undefined;
      };
      const outcome = runSieve(program, { ...sieveMessageOf(headers, prepared, envelope), mayRedirectTo });
      if (outcome.exhausted)
        this.logger.warn({ inboundId: message.inboundId, userId }, `${message.inboundId}: the rules of user ${userId} used their budget; kept in the inbox`);
      const { destination } = outcome;
      const discarded = destination.kind === 'discarded';
      if (discarded) {
        const why =
          destination.reason !== undefined
            ? `rejected (${destination.reason.trim().slice(0, 200)})`
            : outcome.redirects
              ? 'redirected and not kept'
              : 'discarded';
        this.logger.info({ inboundId: message.inboundId, userId }, `${message.inboundId} ${why} by the rules of user ${userId}`);
      }
      if (destination.kind === 'folder') filed.push({ userId, folder: destination.name });
      outcomes.set(userId, {
        seen: outcome.flags.includes('seen'),
        flagged: outcome.flags.includes('flagged'),
        discarded,
        ...(outcome.vacation ? { vacation: outcome.vacation } : {}),
        ...(outcome.redirects ? { redirects: outcome.redirects } : {}),
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

  /** The users each of these addresses reaches (their own, an alias, a group's): a rule never redirects a user's mail back to them. */
  private async ownersOf(addresses: string[]): Promise<Map<string, number[]>> {
    if (addresses.length === 0) return new Map();
    const { known } = await this.directory.resolve([...new Set(addresses)]);
    return new Map([...known].map(([address, { userIds }]) => [address, userIds]));
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
