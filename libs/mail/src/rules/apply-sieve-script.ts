import type { Pool } from 'pg';
import { z } from 'zod';
import { namedStatement } from '@letterbox/db';
import { messageHeadersOf } from '@letterbox/mime';
import { compileSieve, runSieve, type SieveOutcome, type SieveProgram } from '@letterbox/sieve';
import type { BlobStore } from '@letterbox/storage';
import type { BulkAction } from '../change/bulk-mail-changes';
import type { ChangeMailsInBulk } from '../change/change-mails-in-bulk';
import { MailboxNotFoundError } from '../mail-errors';
import { mailboxCounters, type MailboxCounters } from '../mailboxes/mailbox-queries';
import { sieveFolder } from './sieve-folders';
import type { SieveScripts } from './sieve-scripts';

/** Mails of a folder one apply examines at most, the newest first: bounded work, whatever the folder holds. */
export const MAX_APPLIED_MAILS = 5000;
/** Mails read per statement, and changed per bulk change. */
const PAGE = 500;
/** Header blocks read from storage at once. */
const READS_AT_ONCE = 16;
/** Of a mail's header block, only this much is read: its top-level headers, never its parts. */
const HEADER_READ_BYTES = 64 * 1024;

const FOLDER_PAGE = namedStatement(
  'sieve-apply-folder-page',
  `SELECT m.id, m.storage_key, least((m.layout->>'headerEnd')::int, ${HEADER_READ_BYTES}) AS header_end, m.size, m.received_at,
          coalesce((SELECT s.body FROM mail_search s WHERE s.mail_id = m.id), '') AS body
     FROM mails m
    WHERE m.user_id = $1 AND m.mailbox_id = $2 AND m.deleted_at IS NULL
      AND ($3::timestamptz IS NULL OR (m.received_at, m.id) < ($3, $4::int8))
    ORDER BY m.received_at DESC, m.id DESC
    LIMIT $5`,
);

interface FolderMail {
  id: string;
  storage_key: string;
  header_end: number;
  size: number;
  received_at: Date;
  body: string;
}

/** What applying the rules to a folder did. */
export const appliedRulesSchema = z
  .object({
    /** Mails of the folder the rules ran on: its newest, at most MAX_APPLIED_MAILS. */
    examined: z.int(),
    /** Those a rule filed, flagged or discarded. */
    matched: z.int(),
    /** Those that changed: moved, flagged, or moved to the Trash (the others were so already). */
    changed: z.int(),
  })
  .meta({ id: 'AppliedRules' });
export type AppliedRules = z.infer<typeof appliedRulesSchema>;

/**
 * Runs the user's rules over the mail already in one of their folders (the newest MAX_APPLIED_MAILS),
 * as if it arrived now: a fileinto moves it, flags are set, a discard moves it to the Trash; redirect,
 * reject and vacation do nothing to mail that came long ago. Each mail's tests see its top-level headers
 * (read from the stored message by their byte range), its indexed body text and its size, never its
 * attachments; the changes go through the bulk change of listed mails, announced like the user's own.
 */
export class ApplySieveScript {
  constructor(
    private readonly sql: Pool,
    private readonly scripts: SieveScripts,
    private readonly blobs: BlobStore,
    private readonly changes: ChangeMailsInBulk,
  ) {}

  async apply(userId: number, mailboxId: number): Promise<AppliedRules> {
    const mailboxes = await mailboxCounters(this.sql, userId);
    const folder = mailboxes.find((mailbox) => mailbox.id === mailboxId);
    if (!folder) throw new MailboxNotFoundError(mailboxId);
    const script = await this.scripts.get(userId);
    const applied: AppliedRules = { examined: 0, matched: 0, changed: 0 };
    if (script.trim() === '') return applied;
    const program = compileSieve(script);
    const actions = new Map<string, { action: BulkAction; ids: number[] }>();
    let after: FolderMail | undefined;
    while (applied.examined < MAX_APPLIED_MAILS) {
      const limit = Math.min(PAGE, MAX_APPLIED_MAILS - applied.examined);
      const { rows } = await this.sql.query<FolderMail>({ ...FOLDER_PAGE, values: [userId, mailboxId, after?.received_at ?? null, after?.id ?? null, limit] });
      const outcomes = await this.outcomesOf(rows, program);
      rows.forEach((mail, position) => {
        const action = actionOf(outcomes[position], folder, mailboxes);
        if (!action) return;
        applied.matched++;
        const key = JSON.stringify(action);
        const group = actions.get(key) ?? { action, ids: [] };
        group.ids.push(Number(mail.id));
        actions.set(key, group);
      });
      applied.examined += rows.length;
      if (rows.length < limit) break;
      after = rows[rows.length - 1];
    }
    for (const { action, ids } of actions.values()) {
      for (let start = 0; start < ids.length; start += PAGE) {
        const outcome = await this.changes.apply(userId, { ids: ids.slice(start, start + PAGE) }, action);
        applied.changed += outcome.updated.length + outcome.deleted.length;
      }
    }
    return applied;
  }

  private async outcomesOf(mails: FolderMail[], program: SieveProgram): Promise<SieveOutcome[]> {
    const outcomes: SieveOutcome[] = [];
    for (let start = 0; start < mails.length; start += READS_AT_ONCE) {
      const blocks = await Promise.all(
        mails.slice(start, start + READS_AT_ONCE).map(async (mail) => (await this.blobs.readRanges(mail.storage_key, [{ start: 0, end: mail.header_end }]))[0]),
      );
      blocks.forEach((block, offset) => {
        const mail = mails[start + offset];
        const message = { ...messageHeadersOf(block), envelope: { from: '', to: '' }, bodyText: mail.body, size: mail.size, mayRedirectTo: () => false };
        outcomes.push(runSieve(program, message));
      });
    }
    return outcomes;
  }
}

/** The change a run's outcome asks of a mail in `folder`, or none: kept where it is without flags, rejected, or past its budget. */
function actionOf(outcome: SieveOutcome, folder: MailboxCounters, mailboxes: MailboxCounters[]): BulkAction | undefined {
  if (outcome.exhausted) return undefined;
  const { destination } = outcome;
  if (destination.kind === 'discarded') return destination.reason === undefined && folder.role !== 'trash' ? { delete: true } : undefined;
  const target = destination.kind === 'folder' ? sieveFolder(mailboxes, destination.name) : undefined;
  const changes = {
    ...(target && target.id !== folder.id && !target.locked ? { mailboxId: target.id } : {}),
    ...(outcome.flags.includes('seen') ? { seen: true } : {}),
    ...(outcome.flags.includes('flagged') ? { flagged: true } : {}),
  };
  return Object.keys(changes).length > 0 ? { changes } : undefined;
}
