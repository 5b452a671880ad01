export { hashPassword, verifyPassword } from './passwords';
export { AccessTokens } from './access-tokens';
export { BearerAuthGuard, Public, CurrentUser } from './bearer-auth.guard';
export type { AuthenticatedUser } from './authenticated-user';
export { TokenAuthenticator } from './token-authenticator';
export { UserSessions, type SessionState } from './user-sessions';
export { bearerTokenOf } from './bearer-token';
export { FailedAttemptLimiter } from './failed-attempt-limiter';
