import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Pool } from 'pg';
import { BatchedPointReads } from './batched-point-reads';

const url = process.env.DATABASE_URL ?? 'postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox_test';

describe('BatchedPointReads', () => {
  const table = `batched_reads_${process.pid}`;
  const statement = { name: `${table}-values`, text: `SELECT key, value FROM ${table} WHERE key = ANY($1::int[]) ORDER BY value` };
  let pool: Pool;
  let setup: Pool;

  before(async () => {
    setup = new Pool({ connectionString: url, max: 1 });
    await setup.query(`CREATE TABLE ${table} (key int NOT NULL, value int NOT NULL)`);
    await setup.query(`INSERT INTO ${table} SELECT key, value FROM generate_series(1, 50) AS key, generate_series(1, 2) AS value`);
    pool = new Pool({ connectionString: url, max: 1 });
  });

  after(async () => {
    await pool?.end();
    await setup?.query(`DROP TABLE IF EXISTS ${table}`);
    await setup?.end();
  });

  const reads = () => new BatchedPointReads<number, { key: number; value: number }>(statement, (row) => row.key);

  test("the reads of a loop turn are one statement, each answered with its key's rows", async () => {
    let borrowed = 0;
    const count = () => borrowed++;
    pool.on('acquire', count);
    const batched = reads();
    const keys = [...Array.from({ length: 50 }, (_, index) => index + 1), 7, 51];
    const answers = await Promise.all(keys.map((key) => batched.read(pool, key)));
    pool.off('acquire', count);
    assert.equal(borrowed, 1);
    assert.deepEqual(answers[6], [
      { key: 7, value: 1 },
      { key: 7, value: 2 },
    ]);
    assert.deepEqual(answers[50], answers[6], 'a key asked twice');
    assert.deepEqual(answers[51], [], 'a key without rows');
  });

  test('a read asked while the batch waits for a connection is answered after it was asked: a change committed before is seen', async () => {
    const batched = reads();
    const held = await pool.connect();
    const first = batched.read(pool, 3);
    await setup.query(`UPDATE ${table} SET value = value + 10 WHERE key = 3`);
    const second = batched.read(pool, 3);
    held.release();
    assert.deepEqual(
      (await first).map((row) => row.value),
      [11, 12],
      'the first too: its answer is newer than its question',
    );
    assert.deepEqual(
      (await second).map((row) => row.value),
      [11, 12],
    );
  });

  test('a failed statement fails every read of its batch, and the next batch is read', async () => {
    const failing = new BatchedPointReads<number, { key: number }>(
      { name: `${table}-broken`, text: 'SELECT 1 / 0 AS key WHERE $1::int[] IS NOT NULL' },
      (row) => row.key,
    );
    const results = await Promise.allSettled([failing.read(pool, 1), failing.read(pool, 2)]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.match(String((results[0] as PromiseRejectedResult).reason), /division by zero/);
    assert.equal((await reads().read(pool, 4)).length, 2);
  });
});
