import type { Pool, QueryResultRow } from 'pg';
import type { NamedStatement } from './named-statements';

interface Waiter<R> {
  resolve(rows: R[]): void;
  reject(error: unknown): void;
}

/** The keys asked for while the batch waits for a connection, and who asked for each. */
type Batch<K, R> = Map<K, Waiter<R>[]>;

/**
 * Point reads of one statement, asked by many requests at about the same time, sent as one: what is asked while
 * the batch waits for a free connection joins it, and the statement (`WHERE key = ANY($1)`) is sent once one is
 * free. Every read is thus answered from a snapshot taken after it was asked, never an older one, and a turn of
 * the event loop costs one round trip instead of one for each request. Batches are per pool.
 */
export class BatchedPointReads<K extends number | string, R extends QueryResultRow> {
  private readonly open = new Map<Pool, Batch<K, R>>();

  /** `statement` takes the array of keys as $1; `keyOf` says which key a row it returns answers. */
  constructor(
    private readonly statement: NamedStatement,
    private readonly keyOf: (row: R) => K,
  ) {}

  /** The rows of `key` (none when there are none). */
  read(sql: Pool, key: K): Promise<R[]> {
    let batch = this.open.get(sql);
    if (!batch) {
      const started = new Map<K, Waiter<R>[]>();
      this.open.set(sql, started);
      // The requests read in this turn of the loop join it before it asks for a connection.
      setImmediate(() => void this.send(sql, started));
      batch = started;
    }
    const waiters = batch.get(key) ?? [];
    batch.set(key, waiters);
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  private async send(sql: Pool, batch: Batch<K, R>): Promise<void> {
    let rows: R[];
    try {
      const client = await sql.connect();
      // Closed once the statement can be sent: who asks from now on is answered by a later snapshot.
      this.open.delete(sql);
      try {
        rows = (await client.query<R>({ ...this.statement, values: [[...batch.keys()]] })).rows;
        client.release();
      } catch (error) {
        // A connection that failed is not given back to the pool.
        client.release(error as Error);
        throw error;
      }
    } catch (error) {
      if (this.open.get(sql) === batch) this.open.delete(sql);
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      return;
    }
    const byKey = new Map<K, R[]>();
    for (const row of rows) {
      const key = this.keyOf(row);
      byKey.set(key, [...(byKey.get(key) ?? []), row]);
    }
    for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(byKey.get(key) ?? []);
  }
}
