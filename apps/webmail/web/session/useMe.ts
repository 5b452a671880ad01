import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { fetchMe } from '../api/account';
import type { Me } from '../api/types';

/** The signed-in user's profile, role and usage; `refresh` asks again (after mail came or went, or a settings change). */
export function useMe() {
  const [me, setMe] = useState<Me | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const fetched = await fetchMe(controller.signal);
      // Not urgent: the meter and the links it decides are drawn in slices, between the other answers.
      startTransition(() => setMe(fetched));
    } catch {
      // An abort, or a failure: the meter and the links it decides are extras, kept as they were until the next refresh.
    }
  }, []);

  useEffect(() => {
    void refresh();
    return () => inFlight.current?.abort();
  }, [refresh]);

  return { me, refresh };
}
