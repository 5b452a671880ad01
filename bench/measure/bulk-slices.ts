import { BulkChanges, BulkChangeSlices, storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase } from '@letterbox/testing';
import { markReadInSlices } from './mark-read-in-slices';

/**
 * Issue 31's bound on bulk changes in slices: marking 100,000 unread mails read must take
 * at most 1.5 times what the one UPDATE over them all took. Run against a scratch database
 * of its own (DATABASE_URL), never the bench's or the tests':
 *
 *   createdb -h 127.0.0.1 -U postgres letterbox_slices -O letterbox
 *   DATABASE_URL=postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox_slices node -r @swc-node/register scripts/migrate.ts
 *   LETTERBOX_DEMO=true DATABASE_URL=... STORAGE_DIR=tmp/slices-storage node -r @swc-node/register bench/measure/bulk-slices.ts
 *
 * (LETTERBOX_DEMO: its storage inside the repository and the demo's secrets are refused otherwise.)
 *
 * The two ways alternate, three times each, on the same mails made unread again before each
 * run (and vacuumed, so neither inherits the other's dead rows). The one UPDATE is the
 * statement the synchronous filter change ran (user, not deleted, the folder, unread, and
 * changed only if not read already); the slices are BulkChangeSlices as the worker runs them.
 */
const MAILS = 100_000;
const SLICE_SIZE = 2000;
const ROUNDS = 3;

async function main(): Promise<void> {
  const db = testDatabase();
  const blobs = testBlobStore();
  const user = await createTestUser(db, 'slices-measure');
  const { rows: made } = await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Measured', 'custom') RETURNING id", [
    user.id,
  ]);
  const folder = made[0].id;
  const template = await storeMail(db, blobs, { userId: user.id, mailboxId: folder, eml: await randomMail(1, {}) });
  await db.sql.query(
    `WITH ids AS (SELECT g, nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series(2, $2::int) g)
     INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, subject, received_at, size, storage_key, layout)
     SELECT ids.id, ids.id, t.user_id, t.mailbox_id, '<measure-' || ids.id || '@x>', t.from_address, t.subject,
            t.received_at - g * interval '1 second', t.size, t.storage_key, t.layout
       FROM ids, mails t WHERE t.id = $1`,
    [template.id, MAILS],
  );
  const changes = new BulkChanges(db.sql);
  const slices = new BulkChangeSlices(db.sql, changes, SLICE_SIZE);

  const unreadAgain = async () => {
    await db.sql.query('UPDATE mails SET seen = false WHERE mailbox_id = $1', [folder]);
    await db.sql.query('VACUUM ANALYZE mails');
  };
  const oneUpdate = async () => {
    const client = await db.sql.connect();
    try {
      await client.query('SET statement_timeout = 0');
      const { rowCount } = await client.query(
        `UPDATE mails AS m SET seen = true
          WHERE m.user_id = $1 AND m.deleted_at IS NULL AND m.mailbox_id = $2 AND m.seen = false AND m.seen IS DISTINCT FROM true
          RETURNING m.id`,
        [user.id, folder],
      );
      return rowCount ?? 0;
    } finally {
      client.release();
    }
  };
  const inSlices = () => markReadInSlices(db, changes, slices, user.id, folder);

  const timings: Record<'one UPDATE' | 'slices', number[]> = { 'one UPDATE': [], slices: [] };
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [way, run] of [
      ['one UPDATE', oneUpdate],
      ['slices', inSlices],
    ] as const) {
      await unreadAgain();
      const started = performance.now();
      const changed = await run();
      const ms = performance.now() - started;
      if (changed !== MAILS) throw new Error(`${way} changed ${changed} mails, not ${MAILS}`);
      timings[way].push(ms);
      process.stdout.write(`round ${round}: ${way} ${Math.round(ms)} ms\n`);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratio = median(timings.slices) / median(timings['one UPDATE']);
  process.stdout.write(
    `median: one UPDATE ${Math.round(median(timings['one UPDATE']))} ms, slices of ${SLICE_SIZE} ${Math.round(median(timings.slices))} ms: ${ratio.toFixed(2)}x\n`,
  );
  await db.close();
  blobs.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
