import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { fetchMailboxes } from '../api/endpoints';
import { isAbort, messageOf, type Tagged } from '../api/http';
import type { Mailbox, MailboxList } from '../api/types';

/**
 * The user's mailboxes with their counts; `refresh` revalidates them (after an event, a move, a read) with the
 * ETag of the list held: an unchanged list is a 304, and the same array, so nothing redraws.
 */
export function useMailboxes() {
  const [mailboxes, setMailboxes] = useState<Mailbox[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const latest = useRef<Promise<void> | null>(null);
  const generations = useRef(0);
  const held = useRef<Tagged<MailboxList> | null>(null);

  /** Resolves once the mailboxes are fetched: a refresh overtaken by a newer one waits for that one, so a caller
   * that made a folder never sees a list without it (and is not sent back to the inbox). */
  const refresh = useCallback((): Promise<void> => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const generation = ++generations.current;
    const fetched = (async () => {
      try {
        const first = held.current === null;
        held.current = await fetchMailboxes(held.current, controller.signal);
        const items = held.current.body.items;
        // The first answer is drawn as a transition, in slices a phone's main thread can interleave with the other first
        // answers; later ones at once, so a caller awaiting a refresh (a folder just made) finds it drawn.
        const show = () => {
          setMailboxes(items);
          setError(null);
        };
        if (first) startTransition(show);
        else show();
      } catch (failure) {
        if (!isAbort(failure)) setError(messageOf(failure));
        else if (generation !== generations.current) await latest.current;
      }
    })();
    latest.current = fetched;
    return fetched;
  }, []);

  useEffect(() => {
    void refresh();
    return () => inFlight.current?.abort();
  }, [refresh]);

  return { mailboxes, error, refresh };
}
