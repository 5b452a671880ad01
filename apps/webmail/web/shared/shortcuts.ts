import { useEffect, useRef } from 'react';

export type ShortcutMap = Partial<Record<string, (event: KeyboardEvent) => void>>;

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color', 'image']);

/** True while the user types in a field, where letters are text, not shortcuts. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  if (element instanceof HTMLInputElement) return !NOT_TEXT.has(element.type);
  return element.isContentEditable || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT';
}

/**
 * Single-key shortcuts (j, k, c, /, s, #, ?) anywhere but in a field; Escape everywhere.
 * `enabled` turns them off while a dialog owns the keyboard.
 */
export function useShortcuts(shortcuts: ShortcutMap, enabled = true): void {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key !== 'Escape' && typing(event.target)) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      handler(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
