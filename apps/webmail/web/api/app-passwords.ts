import { request, requestJson } from './http';
import type { AppPasswordList, CreatedAppPassword } from './types';

export const fetchAppPasswords = (signal?: AbortSignal) => requestJson<AppPasswordList>('/v2/auth/app-passwords', { signal });

/** A new app password for the mail client `name`: its password is in this answer only. */
export const createAppPassword = (name: string) => requestJson<CreatedAppPassword>('/v2/auth/app-passwords', { method: 'POST', json: { name } });

export const revokeAppPassword = async (id: number) => {
  await request(`/v2/auth/app-passwords/${id}`, { method: 'DELETE' });
};
