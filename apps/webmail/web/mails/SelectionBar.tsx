import type { Mailbox } from '../api/types';
import { MoveToSelect } from './MoveToSelect';

interface Props {
  count: number;
  mailboxes: Mailbox[];
  currentMailboxId: number | null;
  busy: boolean;
  onRead(seen: boolean): void;
  onFlag(flagged: boolean): void;
  onMove(mailboxId: number): void;
  /** Report spam (true) or not spam (false): "Not spam" in the Spam folder, "Report spam" elsewhere. */
  onReportSpam(spam: boolean): void;
  inSpam: boolean;
  onDelete(): void;
  onClear(): void;
}

/** What can be done to the ticked rows at once. */
export function SelectionBar({ count, mailboxes, currentMailboxId, busy, onRead, onFlag, onMove, onReportSpam, inSpam, onDelete, onClear }: Props) {
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected mail">
      <span className="selection-count" role="status">
        {count} selected
      </span>
      <button type="button" disabled={busy} onClick={() => onRead(true)}>
        Mark read
      </button>
      <button type="button" disabled={busy} onClick={() => onRead(false)}>
        Mark unread
      </button>
      <button type="button" disabled={busy} onClick={() => onFlag(true)}>
        Flag
      </button>
      <button type="button" disabled={busy} onClick={() => onFlag(false)}>
        Unflag
      </button>
      <MoveToSelect label="Move selected to" mailboxes={mailboxes} currentMailboxId={currentMailboxId} disabled={busy} onMove={onMove} />
      <button type="button" disabled={busy} onClick={() => onReportSpam(!inSpam)}>
        {inSpam ? 'Not spam' : 'Report spam'}
      </button>
      <button type="button" className="danger" disabled={busy} onClick={onDelete}>
        Delete
      </button>
      <button type="button" className="link" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
