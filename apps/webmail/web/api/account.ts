import { request, requestJson } from './http';
import type { Language } from '../i18n/language';
import type { Me, Session, TotpSetup } from './types';

/** The signed-in user's own account: profile and usage, sessions, password and two-factor sign-in. */

export const fetchMe = (signal?: AbortSignal) => requestJson<Me>('/v2/auth/me', { signal });

/** Saves the user's own settings; the answer is the profile as fetchMe has it. */
export const changeProfile = (changes: { locale: Language }) => requestJson<Me>('/v2/auth/me', { method: 'PATCH', json: changes });

/** Ends this session on the server. A 401 (a session that had ended anyway) is no session expiring under the user: it is signing out. */
export const logout = (token: string) => request('/v2/auth/logout', { method: 'POST', anonymous: true, headers: { authorization: `Bearer ${token}` } });

/** Ends every session of the user, this one included. */
export const logoutEverywhere = () => request('/v2/auth/logout/everywhere', { method: 'POST' });

/** Every other session ends; the answer is a fresh session for this client. */
export const changePassword = (currentPassword: string, newPassword: string) =>
  requestJson<Session>('/v2/auth/password', { method: 'POST', json: { currentPassword, newPassword } });

export const startTotpSetup = () => requestJson<TotpSetup>('/v2/auth/totp', { method: 'POST' });

/** Turns two-factor sign-in on; the recovery codes are shown this once. */
export const confirmTotp = (code: string) => requestJson<{ recoveryCodes: string[] }>('/v2/auth/totp/confirm', { method: 'POST', json: { code } });

export const disableTotp = (password: string) => request('/v2/auth/totp', { method: 'DELETE', json: { password } });
