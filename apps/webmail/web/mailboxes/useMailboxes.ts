import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchMailboxes } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { Mailbox } from '../api/types';

/** The user's mailboxes with their counts; `refresh` refetches them (after an event, a move, a read). */
export function useMailboxes() {
  const [mailboxes, setMailboxes] = useState<Mailbox[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      setMailboxes(await fetchMailboxes(controller.signal));
      setError(null);
    } catch (failure) {
      if (!isAbort(failure)) setError(messageOf(failure));
    }
  }, []);

  useEffect(() => {
    void refresh();
    return () => inFlight.current?.abort();
  }, [refresh]);

  return { mailboxes, error, refresh };
}
