import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort, messageOf } from '../api/http';

export interface PageOf<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A list fetched a page at a time, from the start again whenever `fetchPage` changes (a new search or filter):
 * `more` appends the next page, `reload` starts over (after a change), `replace` updates one item in place.
 */
export function usePages<T>(fetchPage: (cursor: string | null, signal: AbortSignal) => Promise<PageOf<T>>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const inFlight = useRef<AbortController | null>(null);

  const load = useCallback(
    async (cursor: string | null) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setLoading(true);
      try {
        const page = await fetchPage(cursor, controller.signal);
        setItems((current) => (cursor && current ? [...current, ...page.items] : page.items));
        setNextCursor(page.nextCursor);
        setError(null);
      } catch (failure) {
        if (!isAbort(failure)) setError(messageOf(failure));
      } finally {
        if (inFlight.current === controller) setLoading(false);
      }
    },
    [fetchPage],
  );

  useEffect(() => {
    void load(null);
    return () => inFlight.current?.abort();
  }, [load]);

  const reload = useCallback(() => load(null), [load]);
  const more = useCallback(() => (nextCursor ? load(nextCursor) : Promise.resolve()), [load, nextCursor]);

  return { items, error, loading, hasMore: nextCursor !== null, more, reload, setItems };
}
