import path from 'node:path';

const KEY_PATTERN = /^[0-9a-f]{64}(\.gz)?$/;
const FOLDER_PATTERN = /^[0-9a-f]{2}$/;

/** Where a put writes its file before publishing it under its key. */
export const TMP_FOLDER = 'tmp';
/** Where a blob being removed waits while its remover checks it is the file it meant to remove. */
export const TRASH_FOLDER = 'trash';

export function isBlobKey(name: string): boolean {
  return KEY_PATTERN.test(name);
}

/** One of the two levels of folders a key's first bytes name. */
export function isBlobFolder(name: string): boolean {
  return FOLDER_PATTERN.test(name);
}

/** Two levels of folders named by the key's first bytes, so that no folder grows large. */
export function blobPath(root: string, key: string): string {
  return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
}
