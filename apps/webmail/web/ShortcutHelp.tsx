import { useTranslation } from 'react-i18next';

const SHORTCUTS = [
  ['j / k', 'shortcuts.step'],
  ['↑ / ↓', 'shortcuts.move'],
  ['Enter', 'shortcuts.open'],
  ['Escape', 'shortcuts.back'],
  ['c', 'shortcuts.compose'],
  ['/', 'shortcuts.search'],
  ['s', 'shortcuts.flag'],
  ['#', 'shortcuts.delete'],
  ['u', 'shortcuts.unread'],
  ['r / a / f', 'shortcuts.answer'],
  ['x', 'shortcuts.tick'],
  ['?', 'shortcuts.help'],
] as const;

interface Props {
  open: boolean;
  onToggle(open: boolean): void;
}

/** The keyboard shortcuts, under the mailboxes; `?` opens and closes them. */
export function ShortcutHelp({ open, onToggle }: Props) {
  const { t } = useTranslation();
  return (
    <details className="shortcut-help" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary>{t('shortcuts.title')}</summary>
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{t(what)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
