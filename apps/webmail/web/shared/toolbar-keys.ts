import type { KeyboardEvent } from 'react';

/**
 * A toolbar's arrow keys (WAI-ARIA's toolbar): left and right move between its enabled buttons, Home and
 * End to the first and last. Keys inside an open menu are the menu's.
 */
export function moveFocusAlongToolbar(event: KeyboardEvent<HTMLElement>): void {
  if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
  if ((event.target as HTMLElement).closest('[role="menu"]')) return;
  const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)'));
  const current = buttons.indexOf(event.target as HTMLButtonElement);
  if (current === -1) return;
  event.preventDefault();
  const next = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: buttons.length - 1 }[event.key] ?? current;
  buttons[(next + buttons.length) % buttons.length]?.focus();
}
