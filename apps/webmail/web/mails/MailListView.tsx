import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyboardEvent, ReactNode } from 'react';
import { i18next } from '../i18n/i18n';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { MailRow } from './MailRow';
import type { ListItem, MailList } from './useMailList';
import { useRowsInSteps } from './useRowsInSteps';

interface Props {
  title: string;
  list: MailList;
  selectedId: number | null;
  sentView: boolean;
  filtered: boolean;
  /** Rows ticked for a change to many at once. */
  checked: Set<number>;
  /** `range`: every row from the last ticked one to this one. */
  onCheck(item: ListItem, range: boolean): void;
  onOpen(mail: ListItem): void;
  /** Above the rows: the actions on the ticked ones, mark all read. */
  actions?: ReactNode;
}

/** Keys that move the list's cursor, and where to: from the cursor's index to another, given the rows' count. */
const CURSOR_MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index) => index + 1,
  j: (index) => index + 1,
  ArrowUp: (index) => index - 1,
  k: (index) => index - 1,
  Home: () => 0,
  End: (_, count) => count - 1,
};
/** The cursor this close to the last row loaded loads more. */
const LOAD_AHEAD_ROWS = 3;

/**
 * The rows as a grid that is one Tab stop: ↑/↓ (j/k) move a cursor without opening or marking anything read,
 * Enter opens the mail under it, x ticks it. More rows load as the end scrolls into view (or by the button).
 */
export function MailListView({ title, list, selectedId, sentView, filtered, checked, onCheck, onOpen, actions }: Props) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const { items, hasMore, loadMore } = list;
  const shown = useRowsInSteps(items.length);
  const rows = shown < items.length ? items.slice(0, shown) : items;
  // The end of the list is not in sight before every row loaded is drawn.
  const atEnd = rows.length === items.length;
  const [cursorId, setCursorId] = useState<number | null>(null);
  const moveCursorTo = useCallback((focused: ListItem) => setCursorId(focused.id), []);

  // Opening a mail (a click, j/k from the reading pane) puts the cursor on it.
  useEffect(() => {
    if (selectedId !== null) setCursorId(selectedId);
  }, [selectedId]);
  const cursor = items.find((item) => item.id === cursorId) ?? items.find((item) => item.id === selectedId) ?? items[0];

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!cursor || event.ctrlKey || event.metaKey || event.altKey || event.target instanceof HTMLInputElement) return;
    const move = CURSOR_MOVES[event.key];
    if (move) {
      const index = Math.min(rows.length - 1, Math.max(0, move(rows.indexOf(cursor), rows.length)));
      grid.current?.querySelector<HTMLElement>(`.mail-row[data-mail-id="${rows[index].id}"]`)?.focus();
      if (atEnd && index >= rows.length - LOAD_AHEAD_ROWS) loadMore();
    } else if (event.key === 'Enter') {
      onOpen(cursor);
    } else if (event.key === 'x') {
      onCheck(cursor, false);
    } else {
      return;
    }
    // Handled here: not also a shortcut of the whole page (j, k and x there act on the open mail).
    event.preventDefault();
  }

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasMore || !atEnd) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, loadMore, items.length, atEnd]);

  return (
    <div className="mail-list-scroll">
      <h2 className="list-title">
        {title}{' '}
        <span className="list-total">{list.status !== 'loading' && list.total !== null && totalLabel(list.total, list.totalCapped, list.items.length)}</span>
      </h2>
      {actions}
      {list.status === 'loading' && <Loading label={t('list.loading')} />}
      {list.status === 'error' && list.error && <ErrorMessage message={list.error} onRetry={list.retry} />}
      {list.status !== 'loading' && list.items.length === 0 && list.status !== 'error' && (
        <p className="empty">{filtered ? t('list.noMatches') : t('list.empty')}</p>
      )}
      {items.length > 0 && (
        <div
          ref={grid}
          role="grid"
          className="mail-list"
          aria-label={t('list.messagesOf', { title })}
          aria-multiselectable="true"
          aria-busy={list.status === 'more'}
          onKeyDown={onKeyDown}
        >
          {rows.map((mail) => (
            <MailRow
              key={mail.id}
              mail={mail}
              selected={mail.id === selectedId}
              checked={checked.has(mail.id)}
              cursor={mail === cursor}
              sentView={sentView}
              onCheck={onCheck}
              onOpen={onOpen}
              onFocus={moveCursorTo}
            />
          ))}
        </div>
      )}
      {list.hasMore && atEnd && (
        <div ref={sentinel} className="load-more">
          {list.status === 'more' ? (
            <Loading label={t('list.loadingMore')} />
          ) : (
            <button type="button" onClick={list.loadMore}>
              {t('list.loadMore')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** A search is counted no further than its page, so the mails loaded so far can be more than its total. */
function totalLabel(total: number, capped: boolean, loaded: number): string {
  const shown = Math.max(total, loaded);
  return i18next.t(capped ? 'list.totalCapped' : 'list.total', { count: shown });
}
