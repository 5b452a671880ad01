import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Copies the intake spool's files from one folder into another, each one missing there or
 * of another size (a file the first pass met while it was written), streamed and flushed;
 * answers how many it copied. A spool file is written once, whole, before any acceptance
 * names it, and never changed after: one of its final size is the file. A file swept
 * meanwhile is passed over: no acceptance refers to it any more.
 */
export async function copySpoolFiles(from: string, to: string): Promise<void> {
  const names = await filesIn(from);
  if (names.length === 0) return;
  await mkdir(to, { recursive: true });
  for (const name of names) {
    const source = await sizeOf(path.join(from, name));
    if (source !== undefined && source !== (await sizeOf(path.join(to, name)))) await copyFile(path.join(from, name), path.join(to, name));
  }
  await flushFolder(to);
}

/** The spool files in a folder; none when it does not exist. */
export async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.partial')).map((entry) => entry.name);
}

/** Copies under a temporary name, flushed, then renamed: a copy by its name is whole. */
async function copyFile(source: string, target: string): Promise<void> {
  const partial = `${target}.partial`;
  try {
    await pipeline(createReadStream(source), createWriteStream(partial));
  } catch (error) {
    await rm(partial, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const file = await open(partial, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(partial, target);
}

async function flushFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  return stat(file).then(
    (stats) => stats.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
}
