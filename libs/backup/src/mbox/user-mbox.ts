import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { insertMail, MailExportQueries, prepareMail, type ExportedMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import type { Pool } from 'pg';
import { readMbox } from './mbox-reader';
import { mboxEntry } from './mbox-writer';

/** Mails read per page of an export. */
const PAGE = 200;
/** The folder a message without Letterbox's folder header goes to. */
const INBOX = 'Inbox';
/** An import for a user while another runs: two would both find a message missing, and store it twice. */
export class ImportRunningError extends Error {}

/** The first key of the session lock an import holds: its second is the user's id. */
const IMPORT_LOCK = 0x6d626f78; // "mbox"

/** The flags an entry keeps, as Letterbox's mails have them. */
const FLAGS = ['seen', 'flagged', 'important'] as const;

/**
 * A user's mail as an mbox file (RFC 4155, mboxrd) and back: every mail of every folder,
 * each streamed from storage into the file, its folder and flags in Letterbox's header lines
 * (mboxEntry); an import streams each message into storage and stores it as any mail is
 * stored (counters, thread, search row), in its folder (a custom one made if missing). A
 * message its folder holds already is not stored again, so an import cut short is run again;
 * one import per user runs at a time (a session lock), so none is stored twice.
 */
export class UserMbox {
  private readonly queries: MailExportQueries;

  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
  ) {
    this.queries = new MailExportQueries(sql);
  }

  /** Writes the user's mail to `file` (through a temporary name: a file by its name is whole); answers how many mails. */
  async export(userId: number, file: string): Promise<number> {
    let count = 0;
    const entries = async function* (this: UserMbox): AsyncGenerator<Buffer> {
      for (let after = 0, more = true; more;) {
        const page = await this.queries.page(userId, after, PAGE);
        for (const mail of page) {
          count++;
          yield* mboxEntry(envelopeOf(mail), this.blobs.createReadStream(mail.storageKey));
        }
        after = page.at(-1)?.id ?? after;
        more = page.length === PAGE;
      }
    }.call(this);
    const partial = `${file}.partial`;
    try {
      await pipeline(Readable.from(entries), createWriteStream(partial));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    await rename(partial, file);
    return count;
  }

  /**
   * Stores each message of the mbox `file` for the user; answers how many it read and how
   * many it stored. Messages are put into storage side by side (their flushes shared), and
   * inserted one after the other in the file's order, which an export writes them in again.
   */
  async import(userId: number, file: string): Promise<{ read: number; stored: number }> {
    return this.alone(userId, () => this.importFile(userId, file));
  }

  /**
   * Runs `work` holding the user's import lock: a session lock on a connection of its own, which
   * holds no transaction open while the work reads files and writes storage; another import of
   * the same user is refused at once.
   */
  private async alone<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const client = await this.sql.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [IMPORT_LOCK, userId]);
      if (!rows[0].locked) throw new ImportRunningError(`another import for this user is running; run this one once it has ended`);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [IMPORT_LOCK, userId]);
      }
    } finally {
      client.release();
    }
  }

  private async importFile(userId: number, file: string): Promise<{ read: number; stored: number }> {
    const mailboxes = new Map<string, Promise<number>>();
    let stored = 0;
    let inserted = Promise.resolve();
    const read = await readMbox(createReadStream(file), async ({ content, folder = INBOX, flags, date }) => {
      const mailboxId = mailboxes.get(folder) ?? mailboxes.set(folder, this.queries.mailboxNamed(userId, folder)).get(folder)!;
      const prepared = prepareMail(this.blobs, content);
      const [seen, flagged, important] = FLAGS.map((flag) => flags.includes(flag));
      const previous = inserted;
      inserted = (async () => {
        const [mail, mailbox] = await Promise.all([prepared, mailboxId, previous]);
        if (await this.queries.holds(userId, mailbox, mail.blob.key)) return;
        await insertMail(this.sql, mail, { userId, mailboxId: mailbox, receivedAt: date, seen, flagged, important });
        stored++;
      })();
      await inserted;
    });
    return { read, stored };
  }
}

function envelopeOf(mail: ExportedMail) {
  return {
    sender: /^\S+$/.test(mail.fromAddress) ? mail.fromAddress : 'MAILER-DAEMON',
    date: mail.receivedAt,
    folder: mail.mailbox,
    flags: FLAGS.filter((flag) => mail[flag]),
  };
}
