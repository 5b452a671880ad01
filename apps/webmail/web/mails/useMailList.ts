import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { fetchMails, fetchThreads, type ListParams } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { Address, MailSummary, ThreadPage } from '../api/types';

export const PAGE_SIZE = 50;
const MAX_PAGE = 100;

export interface ListOptions {
  sort: '-receivedAt' | 'receivedAt';
  unreadOnly: boolean;
  flaggedOnly: boolean;
  withAttachments: boolean;
  /** Full-text search, operators included. */
  search: string;
  /** A search looks in every folder unless the user keeps it to the open one. */
  searchFolderOnly: boolean;
  /** Conversations collapsed into one row each. */
  conversations: boolean;
}

export const DEFAULT_LIST_OPTIONS: ListOptions = {
  sort: '-receivedAt',
  unreadOnly: false,
  flaggedOnly: false,
  withAttachments: false,
  search: '',
  searchFolderOnly: false,
  conversations: false,
};

/** What a conversation row shows beyond its newest mail. */
export interface ThreadInfo {
  messageCount: number;
  unreadCount: number;
  participants: Address[];
}

/** A row: a mail, or a conversation shown by its newest mail. */
export type ListItem = MailSummary & { thread?: ThreadInfo };

interface ListState {
  items: ListItem[];
  /** Null for conversations, which are not counted. */
  total: number | null;
  totalCapped: boolean;
  nextCursor: string | null;
  status: 'loading' | 'ready' | 'more' | 'error';
  error: string | null;
}

const EMPTY: ListState = { items: [], total: 0, totalCapped: false, nextCursor: null, status: 'loading', error: null };

function threadRows(page: ThreadPage) {
  const items: ListItem[] = page.items.map((thread) => ({
    ...thread.latest,
    seen: thread.unreadCount === 0,
    hasAttachments: thread.hasAttachments,
    thread: { messageCount: thread.messageCount, unreadCount: thread.unreadCount, participants: thread.participants },
  }));
  return { items, total: null, totalCapped: false, nextCursor: page.nextCursor };
}

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
        const page = options.conversations
          ? threadRows(await fetchThreads(params(limit, cursor), ours.signal))
          : await fetchMails(params(limit, cursor), ours.signal).then((mails) => ({ ...mails, totalCapped: mails.totalCapped ?? false }));
        if (run !== generation.current) return;
        const show = () =>
          setState((previous) => ({
            items: append ? [...previous.items, ...page.items.filter((item) => !previous.items.some((old) => old.id === item.id))] : page.items,
            total: page.total,
            totalCapped: page.totalCapped,
            nextCursor: page.nextCursor,
            status: 'ready',
            error: null,
          }));
        // A list's first page (a page of rows to mount) is drawn as a transition, in slices; later answers at once.
        if (current.current.status === 'loading') startTransition(show);
        else show();
      } catch (failure) {
        if (isAbort(failure) || run !== generation.current) return;
        setState((previous) => ({ ...previous, status: 'error', error: messageOf(failure) }));
      }
    },
    [mailboxId, params, options.conversations],
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
    setState((previous) => ({
      ...previous,
      total: previous.total === null ? null : Math.max(0, previous.total - 1),
      items: previous.items.filter((item) => item.id !== id),
    }));
  }, []);

  return { ...state, hasMore: state.nextCursor !== null, loadMore, refresh, retry, patch, remove };
}

export type MailList = ReturnType<typeof useMailList>;
