import { BulkChanges, BulkChangeSlices, storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase } from '@letterbox/testing';
import { markReadInSlices } from './mark-read-in-slices';

/**
 * What numbering mail for IMAP costs the writes that store and change it: the trigger
 * imap_uids_follow_mails on, then off (ALTER TABLE ... DISABLE TRIGGER), in turns, on the
 * same mails. Run against a scratch database of its own, never the bench's or the tests':
 *
 *   createdb -h 127.0.0.1 -U postgres letterbox_uid_cost -O letterbox
 *   DATABASE_URL=postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox_uid_cost node -r @swc-node/register scripts/migrate.ts
 *   LETTERBOX_DEMO=true DATABASE_URL=... STORAGE_DIR=tmp/uid-cost-storage node -r @swc-node/register bench/measure/imap-uid-cost.ts
 *
 * Four writes: a mail stored through storeMail (one at a time, as a single delivery), one
 * statement storing 2,000 mails (a batch of the ingest's size), 100,000 mails marked read
 * in slices (BulkChangeSlices, as the worker runs them), and single mails flagged one by one.
 */
const MAILS = 100_000;
const SLICE_SIZE = 2000;
const SINGLE_STORES = 100;
const SINGLE_FLAGS = 1000;
const BATCH = 2000;
const ROUNDS = 3;
const TRIGGERS = ['mails_imap_insert', 'mails_imap_update', 'mails_imap_delete'];

async function main(): Promise<void> {
  const db = testDatabase();
  const blobs = testBlobStore();
  const user = await createTestUser(db, 'uid-cost');
  const folderNamed = async (name: string) =>
    (await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, $2, 'custom') RETURNING id", [user.id, name])).rows[0].id;
  const folder = await folderNamed('Measured');
  const template = await storeMail(db, blobs, { userId: user.id, mailboxId: folder, eml: await randomMail(1, {}) });
  const copies = (count: number, mailboxId: number) =>
    db.sql.query(
      `WITH ids AS (SELECT g, nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series(1, $2::int) g)
       INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, subject, received_at, size, storage_key, layout)
       SELECT ids.id, ids.id, t.user_id, $3, '<measure-' || ids.id || '@x>', t.from_address, t.subject,
              t.received_at - g * interval '1 second', t.size, t.storage_key, t.layout
         FROM ids, mails t WHERE t.id = $1`,
      [template.id, count, mailboxId],
    );
  await copies(MAILS, folder);
  const { rows: singles } = await db.sql.query<{ id: string }>('SELECT id FROM mails WHERE mailbox_id = $1 LIMIT $2', [folder, SINGLE_FLAGS]);
  const changes = new BulkChanges(db.sql);
  const slices = new BulkChangeSlices(db.sql, changes, SLICE_SIZE);
  const batchFolder = await folderNamed('Batches');
  let seed = 10;

  const writes: Record<string, () => Promise<void>> = {
    [`storeMail x${SINGLE_STORES}`]: async () => {
      const emls = await Promise.all(Array.from({ length: SINGLE_STORES }, () => randomMail((seed += 1), {})));
      for (const eml of emls) await storeMail(db, blobs, { userId: user.id, mailboxId: batchFolder, eml });
    },
    [`one INSERT of ${BATCH}`]: async () => {
      await copies(BATCH, batchFolder);
    },
    [`${MAILS} marked read in slices`]: async () => {
      await markReadInSlices(db, changes, slices, user.id, folder);
    },
    [`${SINGLE_FLAGS} single flag changes`]: async () => {
      for (const { id } of singles) await db.sql.query('UPDATE mails SET flagged = NOT flagged WHERE id = $1', [id]);
    },
  };

  const timings = new Map<string, number[]>();
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const numbered of [true, false]) {
      await db.sql.query('UPDATE mails SET seen = false WHERE mailbox_id = $1', [folder]);
      for (const trigger of TRIGGERS) await db.sql.query(`ALTER TABLE mails ${numbered ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
      await db.sql.query('VACUUM ANALYZE mails');
      await db.sql.query('VACUUM ANALYZE mail_uids');
      for (const [write, run] of Object.entries(writes)) {
        const started = performance.now();
        await run();
        const ms = performance.now() - started;
        const key = `${write}|${numbered ? 'numbered' : 'not numbered'}`;
        timings.set(key, [...(timings.get(key) ?? []), ms]);
        process.stdout.write(`round ${round}, ${numbered ? 'numbered' : 'not numbered'}: ${write} ${Math.round(ms)} ms\n`);
      }
    }
  }
  for (const trigger of TRIGGERS) await db.sql.query(`ALTER TABLE mails ENABLE TRIGGER ${trigger}`);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const write of Object.keys(writes)) {
    const on = median(timings.get(`${write}|numbered`)!);
    const off = median(timings.get(`${write}|not numbered`)!);
    process.stdout.write(`median ${write}: numbered ${Math.round(on)} ms, not numbered ${Math.round(off)} ms: ${(on / off).toFixed(2)}x\n`);
  }
  await db.close();
  blobs.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
