import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

export interface UnzippedEntry {
  name: string;
  content: Buffer;
  modifiedAt: Date;
}

/** A zip's entries in their order, read by yauzl (a reader written apart from the yazl that writes ours). */
export async function unzip(archive: Buffer): Promise<UnzippedEntry[]> {
  const zip = await promisify<Buffer, { lazyEntries: boolean; strictFileNames: boolean }, ZipFile>(fromBuffer)(archive, {
    lazyEntries: true,
    strictFileNames: true,
  });
  const entries: UnzippedEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        contentOf(stream).then((content) => {
          entries.push({ name: entry.fileName, content, modifiedAt: entry.getLastModDate() });
          zip.readEntry();
        }, reject);
      });
    });
    zip.readEntry();
  });
  return entries;
}

async function contentOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
