import type { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';

export interface ZipStreamEntry {
  /** A safe relative name (archive-file-names). */
  name: string;
  /** The exact length `open` streams; a stream of another length fails the archive. */
  size: number;
  modifiedAt: Date;
  open(): Readable;
}

/** yazl's end() as its README documents it: @types/yazl 3.3.1 leaves out the size its callback is given. */
type EndWithTotalSize = (options: undefined, calculatedTotalSize: (bytes: number) => void) => void;

/**
 * A zip archive streamed as it is read: each entry is opened only when the archive reaches
 * it and read at the pace the archive is taken, so no entry is ever held whole. Entries are
 * stored, not deflated: most attachments are compressed already (PDF, images, office files),
 * and stored entries of known sizes give the archive's exact length before its first byte.
 * An entry that fails, or the archive's reader going away, ends the archive and the entry.
 */
export function zipStream(entries: ZipStreamEntry[]): { stream: Readable; size: number } {
  const zip = new ZipFile();
  const archive = zip.outputStream as PassThrough;
  let current: Readable | undefined;
  const fail = (error: Error) => archive.destroy(error);
  zip.on('error', fail);
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { compress: false, size: entry.size, mtime: entry.modifiedAt }, (give) => {
      current = entry.open().once('error', fail);
      give(null, current);
    });
  }
  archive.once('close', () => current?.destroy());
  let size = -1;
  (zip.end as EndWithTotalSize).call(zip, undefined, (bytes) => (size = bytes));
  return { stream: archive, size };
}
