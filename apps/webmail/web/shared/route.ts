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

export const ADMIN_SECTIONS = ['users', 'groups', 'domains', 'office', 'audit'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

/** Which page the address names: the mail (the default), the user's settings, or a section of the administration. */
export type Page = { kind: 'mail' } | { kind: 'settings' } | { kind: 'admin'; section: AdminSection };

export function parsePage(hash: string): Page {
  if (hash === '#/settings') return { kind: 'settings' };
  const admin = /^#\/admin(?:\/(\w+))?$/.exec(hash);
  if (!admin) return { kind: 'mail' };
  const section = ADMIN_SECTIONS.find((candidate) => candidate === admin[1]) ?? 'users';
  return { kind: 'admin', section };
}

export const pageHash = (page: Page) => (page.kind === 'mail' ? '#/' : page.kind === 'settings' ? '#/settings' : `#/admin/${page.section}`);

export function usePage(): Page {
  const [page, setPage] = useState(() => parsePage(location.hash));
  useEffect(() => {
    const update = () => setPage(parsePage(location.hash));
    window.addEventListener('hashchange', update);
    window.addEventListener('popstate', update);
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return page;
}
