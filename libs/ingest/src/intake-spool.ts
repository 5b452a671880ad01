import { randomUUID } from 'node:crypto';
import { mkdir, open, opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { BatchCollector } from '@letterbox/queue';

/** Where a spooled message's bytes are: a spool file and their offset in it (their length is the job's size). */
export interface SpoolPlace {
  file: string;
  offset: number;
}

/** The spool's folder in a disk store's folder: not a blob folder, so the store's listing passes it by. */
export function spoolFolderOf(storageDir: string): string {
  return path.join(storageDir, 'spool');
}

const SPOOL_FILE = /^[0-9a-f-]{36}$/;

/**
 * Makes accepted messages durable together: the messages arriving while a group is
 * written go into one new file, written at once and flushed with one fsync (and
 * one of the folder), so a burst costs an fsync per group, not one per message (group
 * commit). The ingest worker puts each message into blob storage from here before it
 * stores it as mail; a file goes once no acceptance refers to it (sweep).
 */
export class IntakeSpool {
  private readonly groups: BatchCollector<Buffer, SpoolPlace>;
  private made?: Promise<void>;

  constructor(readonly folder: string) {
    this.groups = new BatchCollector((messages) => this.writeGroup(messages), { maxSize: 500, maxWaitMs: 2, maxInFlight: 2 });
  }

  /** Resolves once the message is on disk, with the messages that arrived with it. */
  append(message: Buffer): Promise<SpoolPlace> {
    return this.groups.add(message);
  }

  /**
   * Spooled messages' bytes, each file opened once for all its messages; undefined for a
   * message whose file was swept (its messages were all stored), an Error for one that
   * could not be read.
   */
  async readAll(messages: Array<{ place: SpoolPlace; size: number }>): Promise<Array<Buffer | Error | undefined>> {
    const byFile = new Map<string, number[]>();
    for (const [index, { place }] of messages.entries()) {
      const indexes = byFile.get(place.file) ?? [];
      indexes.push(index);
      byFile.set(place.file, indexes);
    }
    const bytes: Array<Buffer | Error | undefined> = messages.map(() => undefined);
    await Promise.all(
      [...byFile].map(async ([file, indexes]) => {
        const read = await this.readFrom(
          file,
          indexes.map((index) => messages[index]),
        ).catch((error: unknown) => indexes.map(() => error as Error));
        indexes.forEach((index, position) => (bytes[index] = read[position]));
      }),
    );
    return bytes;
  }

  private async readFrom(file: string, messages: Array<{ place: SpoolPlace; size: number }>): Promise<Array<Buffer | Error | undefined>> {
    if (!SPOOL_FILE.test(file)) throw new Error(`${file} is not a spool file`);
    const handle = await open(path.join(this.folder, file), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) return messages.map(() => undefined);
    try {
      const read: Array<Buffer | Error> = [];
      for (const { place, size } of messages) {
        const bytes = Buffer.allocUnsafe(size);
        const { bytesRead } = await handle.read(bytes, 0, size, place.offset);
        read.push(bytesRead === size ? bytes : new Error(`spool file ${file} ends before the ${size} bytes at ${place.offset}`));
      }
      return read;
    } finally {
      await handle.close();
    }
  }

  /**
   * Removes up to `limit` spool files older than `cutoffMs` (epoch) that `referenced` does
   * not name; resolves how many went. A file is referred to within moments of being
   * written (its acceptances' INSERT), so any cutoff of minutes or more never takes one
   * about to be: the blob collector's grace period is used.
   */
  async sweep(referenced: (files: string[]) => Promise<Set<string>>, cutoffMs: number, limit: number): Promise<number> {
    const old: string[] = [];
    const entries = await opendir(this.folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!entries) return 0;
    for await (const entry of entries) {
      if (!SPOOL_FILE.test(entry.name)) continue;
      const { mtimeMs } = await stat(path.join(this.folder, entry.name)).catch(() => ({ mtimeMs: Infinity }));
      if (mtimeMs < cutoffMs) old.push(entry.name);
      if (old.length >= limit) break;
    }
    if (old.length === 0) return 0;
    const kept = await referenced(old);
    const unreferenced = old.filter((file) => !kept.has(file));
    await Promise.all(unreferenced.map((file) => rm(path.join(this.folder, file), { force: true })));
    return unreferenced.length;
  }

  private async writeGroup(messages: Buffer[]): Promise<SpoolPlace[]> {
    await this.folderMade();
    const file = randomUUID();
    const filePath = path.join(this.folder, file);
    try {
      const handle = await open(filePath, 'wx');
      try {
        // One buffer, written until all of it is in or the write fails (a full disk is ENOSPC, not a short write).
        await handle.writeFile(Buffer.concat(messages));
        await handle.datasync();
      } finally {
        await handle.close();
      }
      // The file's name must survive a power loss as its bytes do.
      await syncFolder(this.folder);
    } catch (error) {
      await rm(filePath, { force: true });
      throw error;
    }
    let offset = 0;
    return messages.map((message) => {
      const place = { file, offset };
      offset += message.length;
      return place;
    });
  }

  /** The folder, made once, its name flushed in its parent; tried again after a failure. */
  private folderMade(): Promise<void> {
    this.made ??= (async () => {
      await mkdir(this.folder, { recursive: true });
      await syncFolder(path.dirname(this.folder));
    })().catch((error: unknown) => {
      this.made = undefined;
      throw error;
    });
    return this.made;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
