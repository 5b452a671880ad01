/** Every API call goes through here: the bearer token, problem+json errors, and the 401 that ends a session. */

import { i18next } from '../i18n/i18n';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Array<{ field: string; message: string }> = [],
    /** The problem's `type` URI, e.g. `https://letterbox.dev/problems/totp-required`. */
    readonly type: string | null = null,
  ) {
    super(message);
  }
}

/** The token was refused: the user has to sign in again. */
export class SessionExpiredError extends ApiError {}

let accessToken: string | null = null;
let onExpired: (() => void) | null = null;
let onSetup: ((setup: RequiredSetup) => void) | null = null;

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function currentToken(): string | null {
  return accessToken;
}

/** Called once whenever an API call is answered 401. */
export function onSessionExpired(handler: (() => void) | null): void {
  onExpired = handler;
}

/** What the API wants done before it answers anything else: a password of the user's own, or two-factor sign-in set up. */
export type RequiredSetup = 'password' | 'totp';

const SETUP_PROBLEMS: Record<string, RequiredSetup> = {
  'https://letterbox.dev/problems/password-change-required': 'password',
  'https://letterbox.dev/problems/totp-setup-required': 'totp',
};

/** Called whenever the API refuses a call until the user has done a required setup. */
export function onSetupRequired(handler: ((setup: RequiredSetup) => void) | null): void {
  onSetup = handler;
}

export interface RequestOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Sign-in itself: a 401 there is a wrong password, not an expired session. */
  anonymous?: boolean;
}

async function problemOf(response: Response): Promise<ApiError> {
  let detail = `${response.status} ${response.statusText}`.trim();
  let fields: Array<{ field: string; message: string }> = [];
  let type: string | null = null;
  try {
    const body = (await response.json()) as { type?: string; detail?: string; title?: string; errors?: Array<{ field: string; message: string }> };
    detail = body.detail ?? body.title ?? detail;
    fields = body.errors ?? [];
    type = body.type ?? null;
  } catch {
    // not JSON: keep the status line
  }
  if (response.status === 502 || response.status === 503 || response.status === 504) detail = i18next.t('errors.serverUnreachable', { detail });
  return new ApiError(response.status, detail, fields, type);
}

export async function request(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const sentWith = accessToken;
  if (!options.anonymous && sentWith) headers.authorization = `Bearer ${sentWith}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, i18next.t('errors.network'));
  }
  if (response.status === 401 && !options.anonymous) {
    // Only the session signed in now can expire: a 401 to a call made before the user signed in again (a change's
    // progress asked for in the background, with the old token or none) must not send them back to sign-in.
    if (sentWith !== null && sentWith === accessToken) onExpired?.();
    throw new SessionExpiredError(401, i18next.t('errors.sessionExpired'));
  }
  // A 304 answers a conditional request the caller made (requestRevalidated), keeping what it holds.
  if (!response.ok && !(response.status === 304 && headers['if-none-match'])) {
    const problem = await problemOf(response);
    const setup = problem.type ? SETUP_PROBLEMS[problem.type] : undefined;
    if (response.status === 403 && setup) onSetup?.(setup);
    throw problem;
  }
  return response;
}

export async function requestJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await request(path, options);
  return (await response.json()) as T;
}

/** An answer kept with its ETag, which a later request sends back as If-None-Match. */
export interface Tagged<T> {
  etag: string | null;
  body: T;
}

/** A GET revalidated against the answer held: unchanged (304), the held one stands; changed, the new one with its ETag. */
export async function requestRevalidated<T>(path: string, held: Tagged<T> | null, options: RequestOptions = {}): Promise<Tagged<T>> {
  const conditional: Record<string, string> = held?.etag ? { 'if-none-match': held.etag } : {};
  const response = await request(path, { ...options, headers: { ...options.headers, ...conditional } });
  if (response.status === 304 && held) return held;
  return { etag: response.headers.get('etag'), body: (await response.json()) as T };
}

export const isAbort = (error: unknown): boolean => (error as Error | undefined)?.name === 'AbortError';

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
