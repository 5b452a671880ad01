const SHORTCUTS: Array<[string, string]> = [
  ['j / k', 'next / previous mail'],
  ['Enter', 'open the focused mail'],
  ['Escape', 'back to the list, close a dialog'],
  ['c', 'compose'],
  ['/', 'search'],
  ['s', 'flag or unflag the open mail'],
  ['#', 'delete the open mail'],
  ['u', 'mark the open mail unread'],
  ['r / a / f', 'reply, reply all, forward'],
  ['x', 'tick the open or focused mail (shift-click ticks a range)'],
  ['?', 'show or hide these shortcuts'],
];

interface Props {
  open: boolean;
  onToggle(open: boolean): void;
}

/** The keyboard shortcuts, under the mailboxes; `?` opens and closes them. */
export function ShortcutHelp({ open, onToggle }: Props) {
  return (
    <details className="shortcut-help" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary>Keyboard shortcuts</summary>
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
