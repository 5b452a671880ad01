import type { Database } from '@letterbox/db';
import type { BulkChanges, BulkChangeSlices } from '@letterbox/mail';

/** Marks a folder's unread mail read as the worker does, slice by slice (BulkChangeSlices); answers how many it changed. */
export async function markReadInSlices(db: Database, changes: BulkChanges, slices: BulkChangeSlices, userId: number, folder: number): Promise<number> {
  const { rows } = await db.sql.query<{ id: string; received_at: Date }>(
    'SELECT id, received_at FROM mails WHERE user_id = $1 ORDER BY received_at DESC, id DESC LIMIT 1',
    [userId],
  );
  const change = await changes.record({
    userId,
    queuePrefix: 'measure',
    action: { changes: { seen: true } },
    filter: { mailboxId: folder, seen: false },
    bound: { receivedAt: rows[0].received_at, id: Number(rows[0].id) },
  });
  while (!(await slices.next(change.id)).finished);
  return (await changes.view(userId, change.id)).done;
}
