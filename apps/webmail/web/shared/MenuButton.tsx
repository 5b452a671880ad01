import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Icon, type IconName } from './Icon';

export interface MenuEntry {
  key: string;
  label: string;
  /** A plain action, an option turned on or off, or one of a group's choices. */
  kind?: 'action' | 'checkbox' | 'radio';
  checked?: boolean;
  disabled?: boolean;
  /** A separator before it: it starts a group of its own. */
  startsGroup?: boolean;
  onSelect(): void;
}

interface Props {
  icon: IconName;
  /** The button's accessible name and tooltip, and the menu's name. */
  label: string;
  entries: MenuEntry[];
  /** A short mark on the button, such as how many filters are on. */
  badge?: string;
  disabled?: boolean;
}

const ROLE = { action: 'menuitem', checkbox: 'menuitemcheckbox', radio: 'menuitemradio' } as const;

/**
 * An icon button that opens a menu (WAI-ARIA's menu button): Enter, Space or the down arrow open it on its
 * first entry, the up arrow on its last; arrows, Home, End and a first letter move through it; Enter chooses
 * and closes, Space turns an option on or off and keeps it open; Escape closes it and focus is back on the
 * button, as after a choice. Tab or a click elsewhere closes it.
 */
export function MenuButton({ icon, label, entries, badge, disabled }: Props) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const [focusOn, setFocusOn] = useState<'first' | 'last' | null>(null);

  useEffect(() => {
    if (!open || !focusOn) return;
    const items = menuItems();
    (focusOn === 'first' ? items[0] : items[items.length - 1])?.focus();
    setFocusOn(null);
  }, [open, focusOn]);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!button.current?.parentElement?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  function menuItems(): HTMLElement[] {
    return Array.from(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
  }

  function openOn(where: 'first' | 'last') {
    setOpen(true);
    setFocusOn(where);
  }

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  function choose(entry: MenuEntry, keepOpen: boolean) {
    if (entry.disabled) return;
    entry.onSelect();
    if (!keepOpen) close();
  }

  function onButtonKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openOn(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  function onMenuKey(event: KeyboardEvent<HTMLUListElement>) {
    const items = menuItems();
    const current = items.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') return move(current + 1);
    if (event.key === 'ArrowUp') return move(current - 1);
    if (event.key === 'Home') return move(0);
    if (event.key === 'End') return move(items.length - 1);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      return close();
    }
    if (event.key === 'Tab') {
      // From the button, Tab goes on to what follows the menu.
      button.current?.focus();
      return setOpen(false);
    }
    if (event.key.length === 1 && /\S/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // A first letter goes to the next entry starting with it, as in any menu, and is no shortcut of the page's.
      event.preventDefault();
      const letter = event.key.toLocaleLowerCase();
      const starts = (index: number) => items[index]?.textContent?.trim().toLocaleLowerCase().startsWith(letter);
      for (let step = 1; step <= items.length; step++) {
        const index = (current + step) % items.length;
        if (starts(index)) return move(index);
      }
    }
  }

  return (
    <div className="menu-button">
      <button
        ref={button}
        type="button"
        id={`${id}-button`}
        className="icon-button"
        aria-label={label}
        data-tooltip={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        disabled={disabled}
        onClick={() => (open ? setOpen(false) : openOn('first'))}
        onKeyDown={onButtonKey}
      >
        <Icon name={icon} />
        {badge && (
          <span className="menu-badge" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      {open && (
        <ul ref={menu} id={`${id}-menu`} className="menu" role="menu" aria-labelledby={`${id}-button`} onKeyDown={onMenuKey}>
          {entries.map((entry) => {
            const kind = entry.kind ?? 'action';
            return [
              entry.startsGroup && <li key={`${entry.key}-separator`} role="separator" className="menu-separator" />,
              <li
                key={entry.key}
                role={ROLE[kind]}
                tabIndex={-1}
                aria-checked={kind === 'action' ? undefined : Boolean(entry.checked)}
                aria-disabled={entry.disabled || undefined}
                className="menu-entry"
                onClick={() => choose(entry, false)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    choose(entry, event.key === ' ' && kind !== 'action');
                  }
                }}
              >
                {entry.label}
              </li>,
            ];
          })}
        </ul>
      )}
    </div>
  );
}
