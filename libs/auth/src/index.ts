export { hashPassword, verifyPassword } from './passwords';
export { AccessTokens, type AccessTokenClaims } from './access-tokens';
export { BearerAuthGuard, Public, CurrentUser, type AuthenticatedUser } from './bearer-auth.guard';
export { bearerTokenOf } from './bearer-token';
