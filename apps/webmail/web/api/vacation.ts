import { requestJson } from './http';
import type { Vacation } from './types';

export const fetchVacation = (signal?: AbortSignal) => requestJson<Vacation>('/v2/settings/vacation', { signal });

export const saveVacation = (vacation: Vacation) => requestJson<Vacation>('/v2/settings/vacation', { method: 'PUT', json: vacation });
