import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchMails, type ListParams } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { MailSummary } from '../api/types';

export const PAGE_SIZE = 50;
const MAX_PAGE = 100;

export interface ListOptions {
  sort: '-receivedAt' | 'receivedAt';
  unreadOnly: boolean;
  flaggedOnly: boolean;
  withAttachments: boolean;
  search: string;
  searchIn: 'subject' | 'from';
}

export const DEFAULT_LIST_OPTIONS: ListOptions = {
  sort: '-receivedAt',
  unreadOnly: false,
  flaggedOnly: false,
  withAttachments: false,
  search: '',
  searchIn: 'subject',
};

interface ListState {
  items: MailSummary[];
  total: number;
  nextCursor: string | null;
  status: 'loading' | 'ready' | 'more' | 'error';
  error: string | null;
}

const EMPTY: ListState = { items: [], total: 0, nextCursor: null, status: 'loading', error: null };

/**
 * One mailbox's list, a page at a time. `refresh` reloads what is shown (as many rows as
 * are loaded) without clearing it, for live updates; stale answers are dropped.
 */
export function useMailList(mailboxId: number | null, options: ListOptions, withReceipts: boolean) {
  const [state, setState] = useState<ListState>(EMPTY);
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const current = useRef(state);
  current.current = state;

  const params = useCallback(
    (limit: number, cursor: string | null): ListParams => ({ mailboxId: mailboxId ?? 0, ...options, withReceipts, limit, cursor }),
    [mailboxId, options, withReceipts],
  );

  const fetchPage = useCallback(
    async (limit: number, cursor: string | null, append: boolean) => {
      if (mailboxId === null) return;
      controller.current?.abort();
      const ours = new AbortController();
      controller.current = ours;
      const run = ++generation.current;
      try {
        const page = await fetchMails(params(limit, cursor), ours.signal);
        if (run !== generation.current) return;
        setState((previous) => ({
          items: append ? [...previous.items, ...page.items.filter((item) => !previous.items.some((old) => old.id === item.id))] : page.items,
          total: page.total,
          nextCursor: page.nextCursor,
          status: 'ready',
          error: null,
        }));
      } catch (failure) {
        if (isAbort(failure) || run !== generation.current) return;
        setState((previous) => ({ ...previous, status: 'error', error: messageOf(failure) }));
      }
    },
    [mailboxId, params],
  );

  useEffect(() => {
    setState(EMPTY);
    void fetchPage(PAGE_SIZE, null, false);
    return () => controller.current?.abort();
  }, [fetchPage]);

  const loadMore = useCallback(() => {
    const { nextCursor, status } = current.current;
    if (!nextCursor || status !== 'ready') return;
    setState((previous) => ({ ...previous, status: 'more' }));
    void fetchPage(PAGE_SIZE, nextCursor, true);
  }, [fetchPage]);

  /** As many rows as are shown, from the top: new mail comes in, changed mail is redrawn. */
  const shownLimit = () => Math.min(MAX_PAGE, Math.max(PAGE_SIZE, current.current.items.length));

  const refresh = useCallback(() => fetchPage(shownLimit(), null, false), [fetchPage]);

  const retry = useCallback(() => {
    setState((previous) => ({ ...previous, status: previous.items.length ? 'more' : 'loading', error: null }));
    void fetchPage(shownLimit(), null, false);
  }, [fetchPage]);

  const patch = useCallback((id: number, changes: Partial<MailSummary>) => {
    setState((previous) => ({ ...previous, items: previous.items.map((item) => (item.id === id ? { ...item, ...changes } : item)) }));
  }, []);

  const remove = useCallback((id: number) => {
    setState((previous) => ({ ...previous, total: Math.max(0, previous.total - 1), items: previous.items.filter((item) => item.id !== id) }));
  }, []);

  return { ...state, hasMore: state.nextCursor !== null, loadMore, refresh, retry, patch, remove };
}

export type MailList = ReturnType<typeof useMailList>;
