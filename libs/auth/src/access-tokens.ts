import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whom a token is for: the user's token version ends every token issued before it changed. */
export interface TokenSubject {
  userId: number;
  officeId: number;
  tokenVersion: number;
}

export interface AccessTokenClaims extends TokenSubject {
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/**
 * Bearer tokens: base64url(JSON claims) + "." + HMAC-SHA256. Checking the signature costs a hash
 * of a few bytes; whether the token was revoked since is the guard's question (UserSessions).
 */
export class AccessTokens {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  issue(subject: TokenSubject, now = Date.now()): { accessToken: string; expiresAt: Date } {
    const expiresAt = Math.floor(now / 1000) + this.ttlSeconds;
    const payload = Buffer.from(JSON.stringify({ u: subject.userId, o: subject.officeId, v: subject.tokenVersion, e: expiresAt })).toString('base64url');
    return { accessToken: `${payload}.${this.sign(payload)}`, expiresAt: new Date(expiresAt * 1000) };
  }

  /**
   * The token's claims, or undefined when it is malformed, forged, expired, or valid for longer
   * than a token issued now would be (one minted with a far expiry ends within the TTL too).
   */
  verify(token: string, now = Date.now()): AccessTokenClaims | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u: unknown; o: unknown; v: unknown; e: unknown };
      if (![claims.u, claims.o, claims.v, claims.e].every(Number.isInteger)) return undefined;
      const expiresAtMs = (claims.e as number) * 1000;
      if (expiresAtMs <= now || expiresAtMs - now > this.ttlSeconds * 1000) return undefined;
      return { userId: claims.u as number, officeId: claims.o as number, tokenVersion: claims.v as number, expiresAt: claims.e as number };
    } catch {
      return undefined;
    }
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
