import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FolderSync } from './folder-sync';

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'letterbox-folder-sync-'));
});
after(() => rm(root, { recursive: true, force: true }));

test('many folders asked for at once are synced in a few rounds, and each caller hears about its own', async () => {
  const folders = await Promise.all(
    Array.from({ length: 200 }, async (_, index) => {
      const folder = path.join(root, `f${index % 50}`);
      await mkdir(folder, { recursive: true });
      return folder;
    }),
  );
  const sync = new FolderSync();
  await Promise.all(folders.map((folder) => sync.sync(folder)));
  const missing = path.join(root, 'missing');
  await assert.rejects(sync.sync(missing), (error: NodeJS.ErrnoException) => error.code === 'ENOENT' && error.message.includes(missing));
  await Promise.all([sync.sync(folders[0]), assert.rejects(sync.sync(missing)), sync.sync(folders[1])]);
});
