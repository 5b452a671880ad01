import { useCallback, useState } from 'react';
import { messageOf } from '../api/http';

/** One user action at a time: busy while it runs, and the API's problem detail kept to show when it fails. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** Resolves with what the action answered, or null when it failed (its problem then shown). */
  const run = useCallback(async <T>(action: () => Promise<T>): Promise<{ value: T } | null> => {
    setBusy(true);
    setError(null);
    try {
      return { value: await action() };
    } catch (failure) {
      setError(messageOf(failure));
      return null;
    } finally {
      setBusy(false);
    }
  }, []);

  return { run, busy, error, setError };
}
