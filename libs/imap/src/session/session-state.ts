/** Where a connection is in RFC 3501's state diagram (§3). */
export type SessionState = 'not-authenticated' | 'authenticated' | 'selected' | 'logout';

export const ANY_STATE: readonly SessionState[] = ['not-authenticated', 'authenticated', 'selected'];
export const SIGNED_IN: readonly SessionState[] = ['authenticated', 'selected'];
export const NOT_SIGNED_IN: readonly SessionState[] = ['not-authenticated'];
