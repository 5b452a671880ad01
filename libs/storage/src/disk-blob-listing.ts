import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isBlobFolder, isBlobKey } from './blob-paths';

/** A folder of blobs, named by the first four characters of its keys, and the keys in it in order. */
export interface BlobFolder {
  prefix: string;
  keys: string[];
}

/** The store's blob folders whose prefix sorts after `after` ('' for all), in key order, each read when reached. */
export async function* blobFoldersAfter(root: string, after: string): AsyncGenerator<BlobFolder> {
  for (const first of await subfoldersOf(root)) {
    if (first < after.slice(0, 2)) continue;
    for (const second of await subfoldersOf(path.join(root, first))) {
      const prefix = first + second;
      if (prefix <= after) continue;
      const keys = (await namesIn(path.join(root, first, second))).filter(isBlobKey).sort();
      yield { prefix, keys };
    }
  }
}

async function subfoldersOf(folder: string): Promise<string[]> {
  return (await namesIn(folder)).filter(isBlobFolder).sort();
}

async function namesIn(folder: string): Promise<string[]> {
  return readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}
