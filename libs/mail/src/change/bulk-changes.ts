import type { Pool, PoolClient } from 'pg';
import type { ListCursor } from '../list/list-cursor';
import type { MailListFilter } from '../list/mail-filter-sql';
import { BulkChangeNotFoundError } from '../mail-errors';
import { storableJson } from '../store/storable-text';
import type { BulkAction } from './bulk-mail-changes';
import type { BulkChangeView } from './bulk-change-views';

/** A position in the list order (newest first): a mail's received time and id. */
export type ListKey = ListCursor;

/**
 * The mail list's filter but a search: what a change over a filter may take. An undo's filter
 * also names the change it takes back (`changedBy`): the mails whose flags that change set last.
 */
export type BulkFilter = Omit<MailListFilter, 'search'> & { changedBy?: number };

/** A recorded change over a filter, as its slices need it. */
export interface BulkChange {
  id: number;
  userId: number;
  action: BulkAction;
  filter: BulkFilter;
  status: BulkChangeView['status'];
  /** The newest mail when it was recorded; null: the user had none, so nothing to change. */
  bound: ListKey | null;
  /** The last mail of the last committed slice; null before the first. */
  cursor: ListKey | null;
}

interface BulkChangeRow {
  id: string;
  user_id: number;
  action: BulkAction;
  filter: StoredFilter;
  status: BulkChangeView['status'];
  bound_received_at: Date | null;
  bound_id: string | null;
  cursor_received_at: Date | null;
  cursor_id: string | null;
  done: number;
  total: number | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

/** A filter as jsonb keeps it: its dates as ISO 8601 strings. */
type StoredFilter = Omit<BulkFilter, 'since' | 'until'> & { since?: string; until?: string };

/** The SQL of `bulk_changes`: changes over a filter, recorded, read, moved on by their slices, and finished. */
export class BulkChanges {
  constructor(private readonly sql: Pool) {}

  async record(change: {
    userId: number;
    queuePrefix: string;
    action: BulkAction;
    filter: BulkFilter;
    bound: ListKey | null;
    total?: number;
  }): Promise<BulkChangeView> {
    const { rows } = await this.sql.query<BulkChangeRow>({
      // Nothing to change (no mail at all) is done at once, and never queued.
      text: `INSERT INTO bulk_changes (user_id, queue_prefix, action, filter, bound_received_at, bound_id, total, status, started_at, finished_at)
             SELECT $1, $2, $3, $4, $5, $6, $7, s.status, s.finished, s.finished
               FROM (SELECT CASE WHEN $6::int8 IS NULL THEN 'done' ELSE 'queued' END AS status,
                            CASE WHEN $6::int8 IS NULL THEN now() END AS finished) s
             RETURNING *`,
      values: [
        change.userId,
        change.queuePrefix,
        change.action,
        // A lone surrogate in `from` or `subject` is kept as U+FFFD: what pg sent for it when a filter ran at once.
        JSON.stringify(storedFilter(change.filter), storableJson),
        change.bound?.receivedAt ?? null,
        change.bound?.id ?? null,
        change.total ?? null,
      ],
    });
    return viewOf(rows[0]);
  }

  /** The user's change; another user's is not found. */
  async view(userId: number, changeId: number): Promise<BulkChangeView> {
    const { rows } = await this.sql.query<BulkChangeRow>({ text: 'SELECT * FROM bulk_changes WHERE id = $1 AND user_id = $2', values: [changeId, userId] });
    if (rows.length === 0) throw new BulkChangeNotFoundError(changeId);
    return viewOf(rows[0]);
  }

  /** The user's change as its slices see it; another user's is not found. */
  async find(userId: number, changeId: number): Promise<BulkChange> {
    const { rows } = await this.sql.query<BulkChangeRow>({ text: 'SELECT * FROM bulk_changes WHERE id = $1 AND user_id = $2', values: [changeId, userId] });
    if (rows.length === 0) throw new BulkChangeNotFoundError(changeId);
    return changeOf(rows[0]);
  }

  /** The change, locked until the caller's transaction ends: one slice at a time, whoever runs it. */
  async lock(client: PoolClient, changeId: number): Promise<BulkChange | undefined> {
    const { rows } = await client.query<BulkChangeRow>({ text: 'SELECT * FROM bulk_changes WHERE id = $1 FOR UPDATE', values: [changeId] });
    return rows.length === 0 ? undefined : changeOf(rows[0]);
  }

  /** A slice's progress, in its transaction: `last` is its last mail; `finished`, whether it was the last slice. */
  async advance(client: PoolClient, changeId: number, slice: { changed: number; last: ListKey | null; finished: boolean }): Promise<void> {
    await client.query({
      text: `UPDATE bulk_changes
                SET cursor_received_at = coalesce($2, cursor_received_at), cursor_id = coalesce($3, cursor_id), done = done + $4,
                    status = CASE WHEN $5 THEN 'done' ELSE 'running' END, started_at = coalesce(started_at, now()),
                    finished_at = CASE WHEN $5 THEN now() END, updated_at = now()
              WHERE id = $1`,
      values: [changeId, slice.last?.receivedAt ?? null, slice.last?.id ?? null, slice.changed, slice.finished],
    });
  }

  /** Ends a change that cannot go on; the slices committed before stay. */
  async fail(changeId: number, error: string): Promise<void> {
    await this.sql.query({
      text: `UPDATE bulk_changes SET status = 'failed', error = $2, finished_at = now(), updated_at = now() WHERE id = $1 AND status IN ('queued', 'running')`,
      values: [changeId, error],
    });
  }

  /** Changes of a queue namespace unfinished and untouched for `idleSeconds`: their job may be lost. */
  async idle(queuePrefix: string, idleSeconds: number, limit: number): Promise<Array<{ changeId: number; userId: number }>> {
    const { rows } = await this.sql.query<{ id: string; user_id: number }>({
      text: `SELECT id, user_id FROM bulk_changes
              WHERE queue_prefix = $1 AND status IN ('queued', 'running') AND updated_at < now() - make_interval(secs => $2)
              ORDER BY updated_at LIMIT $3`,
      values: [queuePrefix, idleSeconds, limit],
    });
    return rows.map((row) => ({ changeId: Number(row.id), userId: row.user_id }));
  }
}

function storedFilter({ since, until, ...rest }: BulkFilter): StoredFilter {
  return { ...rest, ...(since ? { since: since.toISOString() } : {}), ...(until ? { until: until.toISOString() } : {}) };
}

function changeOf(row: BulkChangeRow): BulkChange {
  const { since, until, ...rest } = row.filter;
  return {
    id: Number(row.id),
    userId: row.user_id,
    action: row.action,
    filter: { ...rest, ...(since ? { since: new Date(since) } : {}), ...(until ? { until: new Date(until) } : {}) },
    status: row.status,
    bound: keyOf(row.bound_received_at, row.bound_id),
    cursor: keyOf(row.cursor_received_at, row.cursor_id),
  };
}

function keyOf(receivedAt: Date | null, id: string | null): ListKey | null {
  return receivedAt === null || id === null ? null : { receivedAt, id: Number(id) };
}

function viewOf(row: BulkChangeRow): BulkChangeView {
  return {
    id: Number(row.id),
    status: row.status,
    done: row.done,
    ...(row.total === null ? {} : { total: row.total }),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    ...(row.error === null ? {} : { error: row.error }),
  };
}
