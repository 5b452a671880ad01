import type { Pool } from 'pg';
import { loggerFor, oncePerInterval, within } from '@letterbox/observability';
import { namedStatement } from '../named-statements';
import { sortableWalPosition } from './wal-position';

/** Long enough that one query serves every read of a busy process in between, short enough to add no noticeable delay to seeing a write. */
const MAX_AGE_MS = 10;
const ANSWER_WITHIN_MS = 500;
const logger = loggerFor('db');
const REPLAYED_POSITION = namedStatement('replica-replayed-position', 'SELECT pg_last_wal_replay_lsn()::text AS lsn');

/**
 * How far the replica has replayed the primary's WAL, asked at most every MAX_AGE_MS. A
 * position a few milliseconds old is behind the real one, so it can only send a read to
 * the primary that the replica could have served, never the other way round. Undefined
 * while the replica does not answer (or is no standby): reads then go to the primary.
 */
export class ReplayedPosition {
  private asked?: { at: number; position: Promise<string | undefined> };
  private readonly mayReport = oncePerInterval(30_000);

  constructor(private readonly replica: Pool) {}

  current(): Promise<string | undefined> {
    const now = performance.now();
    if (!this.asked || now - this.asked.at > MAX_AGE_MS) this.asked = { at: now, position: this.ask() };
    return this.asked.position;
  }

  private async ask(): Promise<string | undefined> {
    try {
      const { rows } = await within(this.replica.query<{ lsn: string | null }>(REPLAYED_POSITION), ANSWER_WITHIN_MS);
      return rows[0].lsn === null ? undefined : sortableWalPosition(rows[0].lsn);
    } catch (error) {
      if (this.mayReport()) logger.warn({ err: error }, 'the read replica does not answer: reads go to the primary (repeats are not logged for 30 s)');
      return undefined;
    }
  }
}
