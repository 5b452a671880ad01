import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in a transaction on one pooled connection: committed when it resolves,
 * rolled back when it throws (its error is what the caller sees). Only database work
 * belongs inside: no file, network or queue I/O may hold the connection.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
