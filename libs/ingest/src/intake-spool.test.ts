import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { IntakeSpool, spoolFolderOf } from './intake-spool';

describe('the intake spool', () => {
  let storage: string;
  let spool: IntakeSpool;

  before(async () => {
    storage = await mkdtemp(path.join(tmpdir(), 'letterbox-spool-'));
    spool = new IntakeSpool(spoolFolderOf(storage));
  });
  after(() => rm(storage, { recursive: true, force: true }));

  const message = (index: number) => Buffer.from(`Subject: ${index}\r\n\r\n${randomUUID()} ${'x'.repeat(index)}\r\n`);

  test('messages appended together go into one file, written once, each read back from its own place', async () => {
    const messages = Array.from({ length: 50 }, (_, index) => message(index));
    const places = await Promise.all(messages.map((bytes) => spool.append(bytes)));
    assert.equal(new Set(places.map((place) => place.file)).size, 1, 'one group, one file');
    const read = await spool.readAll(places.map((place, index) => ({ place, size: messages[index].length })));
    for (const [index, bytes] of read.entries()) assert.ok(Buffer.isBuffer(bytes) && bytes.equals(messages[index]), `message ${index}`);
  });

  test('a group that cannot be written fails each of its messages, and the next group is written', async () => {
    const blocked = new IntakeSpool(path.join(storage, 'not-a-folder'));
    await writeFile(path.join(storage, 'not-a-folder'), 'a file where the folder should be');
    const outcomes = await Promise.allSettled([blocked.append(message(1)), blocked.append(message(2))]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['rejected', 'rejected'],
    );
    await rm(path.join(storage, 'not-a-folder'));
    const place = await blocked.append(message(3));
    assert.ok(place.file);
  });

  test('a sweep removes the old files no acceptance refers to, and keeps the young and the referred to', async () => {
    const swept = new IntakeSpool(spoolFolderOf(path.join(storage, 'swept')));
    const old = (await swept.append(message(1))).file;
    const oldReferred = (await swept.append(message(2))).file;
    const young = (await swept.append(message(3))).file;
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const file of [old, oldReferred]) await utimes(path.join(swept.folder, file), hourAgo, hourAgo);
    const asked: string[][] = [];
    const referenced = async (files: string[]) => {
      asked.push([...files].sort());
      return new Set([oldReferred]);
    };
    assert.equal(await swept.sweep(referenced, Date.now() - 60_000, 100), 1);
    assert.deepEqual(asked, [[old, oldReferred].sort()], 'only old files are looked up');
    assert.deepEqual((await readdir(swept.folder)).sort(), [oldReferred, young].sort());
    assert.deepEqual(await swept.readAll([{ place: { file: old, offset: 0 }, size: 1 }]), [undefined], 'a swept file has no bytes to give');
  });
});
