import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { cancelSend, fetchScheduledSends } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { ScheduledSend } from '../api/types';
import { useAction } from '../shared/useAction';

/** The user's scheduled sends, fetched again on `refresh` (after a send, an undo, a live event); `cancel` returns one to Drafts. */
export function useScheduledSends(onCancelled: () => void) {
  const [sends, setSends] = useState<ScheduledSend[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const { run, busy, error } = useAction();

  const refresh = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const fetched = await fetchScheduledSends(controller.signal);
      // Not urgent: drawn in slices, between the other answers; none scheduled (the usual case) draws nothing again.
      startTransition(() => {
        setSends((current) => (fetched.length === 0 && current.length === 0 ? current : fetched));
        setLoadError(null);
      });
    } catch (failure) {
      if (!isAbort(failure)) setLoadError(messageOf(failure));
    }
  }, []);

  useEffect(() => {
    void refresh();
    return () => inFlight.current?.abort();
  }, [refresh]);

  const cancel = useCallback(
    async (send: ScheduledSend) => {
      if (await run(() => cancelSend(send.id))) onCancelled();
      await refresh();
    },
    [run, onCancelled, refresh],
  );

  return { sends, busy, error: error ?? loadError, refresh, cancel };
}
