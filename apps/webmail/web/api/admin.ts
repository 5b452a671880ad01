import { request, requestJson } from './http';
import type { AdminGroup, AdminUser, AdminUserPage, AuditPage, Domain, GroupChanges, NewUser, Office, UserChanges } from './types';

/** The office administrator's calls (the API answers 403 to anyone else). */

function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const fetchUsers = (params: { q?: string; cursor?: string | null; limit?: number }, signal?: AbortSignal) =>
  requestJson<AdminUserPage>(`/v2/admin/users${query(params)}`, { signal });

export const createUser = (user: NewUser) => requestJson<AdminUser>('/v2/admin/users', { method: 'POST', json: user });

export const changeUser = (id: number, changes: UserChanges) => requestJson<AdminUser>(`/v2/admin/users/${id}`, { method: 'PATCH', json: changes });

export const deleteUser = (id: number) => request(`/v2/admin/users/${id}`, { method: 'DELETE' });

export const addAlias = (id: number, address: string) => requestJson<AdminUser>(`/v2/admin/users/${id}/aliases`, { method: 'POST', json: { address } });

export const removeAlias = (id: number, address: string) => request(`/v2/admin/users/${id}/aliases/${encodeURIComponent(address)}`, { method: 'DELETE' });

export const fetchDomains = (signal?: AbortSignal) => requestJson<{ domains: Domain[] }>('/v2/admin/domains', { signal }).then((body) => body.domains);

export const addDomain = (name: string) => requestJson<Domain>('/v2/admin/domains', { method: 'POST', json: { name } });

export const fetchGroups = (signal?: AbortSignal) => requestJson<{ groups: AdminGroup[] }>('/v2/admin/groups', { signal }).then((body) => body.groups);

export const createGroup = (group: { name: string; address: string; userIds: number[]; groupIds: number[] }) =>
  requestJson<AdminGroup>('/v2/admin/groups', { method: 'POST', json: group });

export const changeGroup = (id: number, changes: GroupChanges) => requestJson<AdminGroup>(`/v2/admin/groups/${id}`, { method: 'PATCH', json: changes });

export const deleteGroup = (id: number) => request(`/v2/admin/groups/${id}`, { method: 'DELETE' });

export const fetchOffice = (signal?: AbortSignal) => requestJson<Office>('/v2/admin/office', { signal });

export const changeOffice = (changes: { requireTotp: boolean }) => requestJson<Office>('/v2/admin/office', { method: 'PATCH', json: changes });

export const fetchAudit = (params: { cursor?: string | null; action?: string; actor?: string; limit?: number }, signal?: AbortSignal) =>
  requestJson<AuditPage>(`/v2/admin/audit${query(params)}`, { signal });
