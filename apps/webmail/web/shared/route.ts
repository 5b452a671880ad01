import { useEffect, useState } from 'react';

/** Where the user is, kept in the address's hash so a reload or a new sign-in returns there. */
export interface Route {
  mailboxId: number | null;
  mailId: number | null;
}

export function parseRoute(hash: string): Route {
  const match = /^#\/mailbox\/(\d+)(?:\/mail\/(\d+))?/.exec(hash);
  return { mailboxId: match ? Number(match[1]) : null, mailId: match?.[2] ? Number(match[2]) : null };
}

export const routeHash = (route: Route) =>
  route.mailboxId === null ? '#/' : `#/mailbox/${route.mailboxId}${route.mailId === null ? '' : `/mail/${route.mailId}`}`;

export function navigate(route: Route, replace = false): void {
  const hash = routeHash(route);
  if (location.hash === hash) return;
  if (replace) history.replaceState(null, '', hash);
  else history.pushState(null, '', hash);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', update);
    window.addEventListener('popstate', update);
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}
