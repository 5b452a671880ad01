/** What a token's failed send means: the token is dead, or a later try may succeed, or it never will. */
export type PushFailureKind = 'dead' | 'transient' | 'permanent';

/** What firebase-admin tells of a failed message (a FirebaseError, or any error a request ended with). */
export interface PushError {
  code?: string;
  message: string;
  httpResponse?: { status: number };
}

/** FCM no longer knows the token (the app was uninstalled, its token rotated) or it never was one. */
const DEAD_TOKEN_CODES = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);

/**
 * FCM could not take the message now: unavailable, over quota, an internal error; or the
 * request never got an answer. firebase-admin already retried 503s and reset connections
 * a few times before giving one of these.
 */
const TRANSIENT_CODES = new Set([
  'messaging/server-unavailable',
  'messaging/internal-error',
  'messaging/message-rate-exceeded',
  'messaging/device-message-rate-exceeded',
  'app/network-error',
  'app/network-timeout',
]);

/** A 400 INVALID_ARGUMENT is about the token when FCM says so; otherwise it is about the message, which no retry fixes. */
const aboutTheToken = (message: string) => /registration token/i.test(message);

/**
 * Sorts a failure the way FCM's documentation says to handle it: remove dead tokens, retry
 * transient failures with backoff, never retry anything else (a sender mismatch, a bad
 * credential, a message FCM refuses).
 */
export function classifyPushFailure(error: PushError): PushFailureKind {
  const code = error.code ?? '';
  if (DEAD_TOKEN_CODES.has(code)) return 'dead';
  if (code === 'messaging/invalid-argument' && aboutTheToken(error.message)) return 'dead';
  if (TRANSIENT_CODES.has(code)) return 'transient';
  // A gateway in front of FCM answering 502/504 without FCM's JSON reaches us as an unknown error.
  const status = error.httpResponse?.status ?? 0;
  if (status === 429 || status >= 500) return 'transient';
  return 'permanent';
}
