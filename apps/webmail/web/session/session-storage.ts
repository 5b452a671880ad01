import type { Session } from '../api/types';

const KEY = 'letterbox.session';

/** The session lives in sessionStorage: it ends with the tab, and a reload keeps it. */
export function loadSession(): Session | null {
  try {
    const session = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    if (!session?.accessToken) return null;
    return new Date(session.expiresAt).getTime() > Date.now() ? session : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}
