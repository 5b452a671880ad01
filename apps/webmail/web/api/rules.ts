import { request, requestJson } from './http';
import type { AppliedRules } from './types';

/** The user's rules, one Sieve script as text: empty when there are none. */
export const fetchRules = async (signal?: AbortSignal) => (await request('/v2/sieve', { signal, headers: { accept: 'text/plain' } })).text();

/** Replaces the rules; a script the server cannot run is refused with the line and column of its problem. */
export const saveRules = (script: string) => request('/v2/sieve', { method: 'PUT', body: script, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/** Runs the saved rules over the mail already in a folder (never redirecting or replying): how many mails matched, and changed. */
export const applyRules = (folder: number) => requestJson<AppliedRules>('/v2/sieve/apply', { method: 'POST', json: { folder } });
