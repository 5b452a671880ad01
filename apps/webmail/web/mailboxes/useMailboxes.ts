import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchMailboxes } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { Mailbox } from '../api/types';

/** The user's mailboxes with their counts; `refresh` refetches them (after an event, a move, a read). */
export function useMailboxes() {
  const [mailboxes, setMailboxes] = useState<Mailbox[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const latest = useRef<Promise<void> | null>(null);
  const generations = useRef(0);

  /** Resolves once the mailboxes are fetched: a refresh overtaken by a newer one waits for that one, so a caller
   * that made a folder never sees a list without it (and is not sent back to the inbox). */
  const refresh = useCallback((): Promise<void> => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const generation = ++generations.current;
    const fetched = (async () => {
      try {
        setMailboxes(await fetchMailboxes(controller.signal));
        setError(null);
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
