import { useEffect, useState } from 'react';
import { isAbort, messageOf } from '../api/http';
import { fetchIdentities } from '../api/identities';
import type { Identity } from '../api/types';

/** The user's identities as compose offers them, read afresh each time it opens (Settings may have changed them). */
export function useIdentities(): { identities: Identity[] | null; error: string | null } {
  const [identities, setIdentities] = useState<Identity[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchIdentities(abort.signal).then(
      (list) => setIdentities(list.items),
      (failure: unknown) => {
        if (!isAbort(failure)) setError(messageOf(failure));
      },
    );
    return () => abort.abort();
  }, []);
  return { identities, error };
}
