import { BulkChangeNotUndoableError } from '../mail-errors';
import type { BulkChanges } from './bulk-changes';
import type { BulkChangeView } from './bulk-change-views';
import type { BulkAction } from './bulk-mail-changes';
import type { StartBulkChange } from './start-bulk-change';

type Flag = 'seen' | 'flagged' | 'important';
const FLAGS: Flag[] = ['seen', 'flagged', 'important'];

/**
 * Takes back a finished change of one flag over a filter ("Mark all as read", then Undo): a
 * new change over the mails it marked (mails.bulk_change_id) that still have the flag it set,
 * setting the flag back, in slices like any. A mail changed since by another change over a
 * filter is that change's, and stays; the undo is itself a change of one flag, so it can be
 * undone in turn. A move or a delete has no undo here: which folder each mail came from is not kept.
 */
export class UndoBulkChange {
  constructor(
    private readonly changes: BulkChanges,
    private readonly startChange: StartBulkChange,
  ) {}

  async undo(userId: number, changeId: number): Promise<BulkChangeView> {
    const change = await this.changes.find(userId, changeId);
    if (change.status === 'queued' || change.status === 'running') throw new BulkChangeNotUndoableError(changeId, 'it is still running');
    const flag = singleFlagOf(change.action);
    if (!flag) throw new BulkChangeNotUndoableError(changeId, 'only a change of one flag (seen, flagged or important) has an undo');
    return this.startChange.start(userId, { changedBy: changeId, [flag.name]: flag.value }, { changes: { [flag.name]: !flag.value } });
  }
}

function singleFlagOf(action: BulkAction): { name: Flag; value: boolean } | undefined {
  if (!('changes' in action)) return undefined;
  const given = Object.entries(action.changes).filter(([, value]) => value !== undefined);
  const [entry] = given;
  if (given.length !== 1 || !FLAGS.includes(entry[0] as Flag) || typeof entry[1] !== 'boolean') return undefined;
  return { name: entry[0] as Flag, value: entry[1] };
}
