import { fetchBulkChange } from '../api/endpoints';
import type { BulkChange } from '../api/types';
import { i18next } from '../i18n/i18n';

/** Often enough for a line that counts up, seldom enough to cost the server nothing next to the change. */
const POLL_MS = 500;

/** Asks how far a change is until it has ended (done or failed), telling `onProgress` each answer. */
export async function followBulkChange(change: BulkChange, onProgress: (change: BulkChange) => void): Promise<BulkChange> {
  let current = change;
  onProgress(current);
  while (current.status === 'queued' || current.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await fetchBulkChange(current.id);
    onProgress(current);
  }
  return current;
}

/** "Marking 12,000 of ~100,000 read…": the count so far, and the server's estimate when it has one. */
export function markReadProgress(change: BulkChange, marking: 'read' | 'unread' = 'read'): string {
  const { done, total } = change;
  if (total === undefined) return i18next.t(marking === 'read' ? 'list.markingRead' : 'list.markingUnread', { done });
  return i18next.t(marking === 'read' ? 'list.markingReadOf' : 'list.markingUnreadOf', { done, total });
}
