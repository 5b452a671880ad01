import { BULK_USER_EMAIL } from '../data/bench-accounts';
import type { BenchFixtures } from '../harness/bench-fixtures';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import { count, milliseconds } from '../report/format';
import type { ProcedureScenario } from './scenario';

const MARKED = 100_000;
/** The naive way, one PATCH per mail, is timed on this many and its rate given for the rest. */
const NAIVE_SAMPLE = 3_000;
const NAIVE_CONCURRENCY = 50;

/** How often the change's progress is asked for: a small part of a change of seconds. */
const POLL_MS = 25;

/**
 * Marks 100,000 of the bulk user's mails read with one POST /v2/mails/bulk (a filter on a
 * folder holding them, all made unread first), timed from the request until the ingest
 * worker's slices have all committed (GET /v2/mails/bulk/:id says done), then times the
 * naive way, a PATCH per mail from 50 connections, on a sample.
 */
export const bulkReadScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'bulk-read',
  title: 'POST /v2/mails/bulk: 100,000 mails of the bulk user marked read in one request, beside a PATCH per mail',
  summary: `moves ${count(MARKED)} mails into a folder of their own, makes them unread, marks them read in one request (about a minute in all)`,
  run: runBulkRead,
};

async function runBulkRead(fixtures: BenchFixtures): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const token = await fixtures.token(BULK_USER_EMAIL);
  const [userId] = await fixtures.userIdsOf([BULK_USER_EMAIL]);
  const folder = await benchFolder(fixtures, userId);
  await fixtures.sql.query(
    `UPDATE mails SET mailbox_id = $2, seen = false
      WHERE id IN (SELECT m.id FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id
                    WHERE m.user_id = $1 AND m.deleted_at IS NULL AND NOT b.locked ORDER BY m.id LIMIT ${MARKED})`,
    [userId, folder],
  );
  const before = await unread(fixtures, folder);

  const started = performance.now();
  const answer = await fixtures.api.postJson<BulkChange>('/v2/mails/bulk', { filter: { mailboxId: folder, seen: false }, seen: true }, token);
  if (answer.status !== 202) throw new Error(`the bulk change answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const acceptedMs = performance.now() - started;
  const change = await finished(fixtures, answer.body.id, token);
  const bulkMs = performance.now() - started;
  if (change.status !== 'done') throw new Error(`the bulk change ${change.status}: ${change.error ?? ''}`);
  const after = await unread(fixtures, folder);

  const { rows } = await fixtures.sql.query<{ id: string }>(
    `UPDATE mails SET seen = false WHERE id IN (SELECT id FROM mails WHERE mailbox_id = $1 ORDER BY id LIMIT ${NAIVE_SAMPLE}) RETURNING id`,
    [folder],
  );
  const naiveStarted = performance.now();
  await patchEach(
    fixtures,
    token,
    rows.map((row) => Number(row.id)),
  );
  const naiveMs = performance.now() - naiveStarted;
  const naivePerMailMs = naiveMs / rows.length;

  return {
    scenario: 'bulk-read',
    title: bulkReadScenario.title,
    startedAt,
    notes: [
      `unread in the folder: ${count(before)} before, ${count(after)} after (${after === 0 ? 'the counter follows' : 'WARNING: the counter is off'})`,
      `bulk: ${count(change.done)} mails marked read in ${milliseconds(bulkMs)} ms (answered 202 after ${milliseconds(acceptedMs)} ms; done in slices by the ingest worker)`,
      `a PATCH per mail (${NAIVE_CONCURRENCY} at once): ${count(rows.length)} in ${milliseconds(naiveMs)} ms, so about ${Math.round((naivePerMailMs * MARKED) / 1000)} s for ${count(MARKED)}`,
    ],
    table: {
      header: ['way', 'mails', 'ms', 'mails/s'],
      rows: [
        ['one bulk request, until done', count(change.done), milliseconds(bulkMs), count((change.done / bulkMs) * 1000)],
        [`a PATCH per mail (sample)`, count(rows.length), milliseconds(naiveMs), count((rows.length / naiveMs) * 1000)],
      ],
    },
    data: { marked: change.done, bulkMs, acceptedMs, unreadBefore: before, unreadAfter: after, naiveSample: rows.length, naiveMs, naivePerMailMs },
  };
}

interface BulkChange {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  done: number;
  error?: string;
}

async function finished(fixtures: BenchFixtures, changeId: number, token: string): Promise<BulkChange> {
  for (;;) {
    const change = await fixtures.api.getJson<BulkChange>(`/v2/mails/bulk/${changeId}`, token);
    if (change.status === 'done' || change.status === 'failed') return change;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function benchFolder(fixtures: BenchFixtures, userId: number): Promise<number> {
  const { rows } = await fixtures.sql.query<{ id: number }>(
    `INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Bench bulk read', 'custom')
     ON CONFLICT (user_id, name) DO UPDATE SET locked = false RETURNING id`,
    [userId],
  );
  return rows[0].id;
}

async function unread(fixtures: BenchFixtures, mailboxId: number): Promise<number> {
  const { rows } = await fixtures.sql.query<{ unread_count: number }>('SELECT unread_count FROM mailboxes WHERE id = $1', [mailboxId]);
  return rows[0].unread_count;
}

async function patchEach(fixtures: BenchFixtures, token: string, ids: number[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const response = await fetch(new URL(`/v2/mails/${id}`, fixtures.api.base), {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ seen: true }),
      });
      if (response.status !== 200) throw new Error(`PATCH /v2/mails/${id} answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: NAIVE_CONCURRENCY }, worker));
}
