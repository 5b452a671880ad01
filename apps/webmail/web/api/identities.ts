import { requestJson } from './http';
import type { Identity, IdentityList } from './types';

export const fetchIdentities = (signal?: AbortSignal) => requestJson<IdentityList>('/v2/identities', { signal });

/** Changes an identity's name (null: the user's) and signature, plain and formatted (null: none). */
export const changeIdentity = (address: string, changes: { displayName?: string | null; signatureText?: string | null; signatureHtml?: string | null }) =>
  requestJson<Identity>(`/v2/identities/${encodeURIComponent(address)}`, { method: 'PATCH', json: changes });
