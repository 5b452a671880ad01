import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Whom a token is for: the user's token version ends every token issued before it changed. */
export interface TokenSubject {
  userId: number;
  officeId: number;
  tokenVersion: number;
  /**
   * The session (token family) it belongs to: a sign-in starts one, a new password continues it, a sign-out of
   * this session ends it. A new one when not given.
   */
  sessionId?: string;
}

export interface AccessTokenClaims extends Required<TokenSubject> {
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** 128 random bits, base64url: what a sign-in's session is known by. */
export const newSessionId = () => randomBytes(16).toString('base64url');

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Signature-checked tokens remembered; a client sends the same token on request after request. */
const MAX_CHECKED_TOKENS = 10_000;

/**
 * Bearer tokens: base64url(JSON claims) + "." + HMAC-SHA256. Checking the signature costs a hash
 * of a few bytes; whether the token was revoked since is the guard's question (UserSessions).
 */
export class AccessTokens {
  /**
   * Claims of tokens whose signature checked, by the whole token: the hash and decoding were a few
   * percent of a point read's CPU. A forged token never matches one, since the signature is part of the key.
   */
  private readonly checked = new Map<string, AccessTokenClaims>();

  constructor(
    private readonly secret: string,
    readonly ttlSeconds: number,
  ) {}

  issue(subject: TokenSubject, now = Date.now()): { accessToken: string; expiresAt: Date } {
    const expiresAt = Math.floor(now / 1000) + this.ttlSeconds;
    const claims = { u: subject.userId, o: subject.officeId, v: subject.tokenVersion, s: subject.sessionId ?? newSessionId(), e: expiresAt };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { accessToken: `${payload}.${this.sign(payload)}`, expiresAt: new Date(expiresAt * 1000) };
  }

  /**
   * The token's claims, or undefined when it is malformed, forged, expired, or valid for longer
   * than a token issued now would be (one minted with a far expiry ends within the TTL too).
   */
  verify(token: string, now = Date.now()): AccessTokenClaims | undefined {
    const claims = this.checked.get(token) ?? this.checkSignature(token);
    if (!claims) return undefined;
    const expiresAtMs = claims.expiresAt * 1000;
    if (expiresAtMs <= now || expiresAtMs - now > this.ttlSeconds * 1000) return undefined;
    return { ...claims };
  }

  /** The claims of a well-formed, validly signed token, whatever its expiry; remembered. */
  private checkSignature(token: string): AccessTokenClaims | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let decoded: { u: unknown; o: unknown; v: unknown; s: unknown; e: unknown };
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof decoded;
    } catch {
      return undefined;
    }
    // A token from before sessions has none: it is refused, and its user signs in again once.
    if (![decoded.u, decoded.o, decoded.v, decoded.e].every(Number.isInteger) || typeof decoded.s !== 'string' || !SESSION_ID.test(decoded.s)) return undefined;
    const claims = {
      userId: decoded.u as number,
      officeId: decoded.o as number,
      tokenVersion: decoded.v as number,
      sessionId: decoded.s,
      expiresAt: decoded.e as number,
    };
    if (this.checked.size >= MAX_CHECKED_TOKENS) this.checked.delete(this.checked.keys().next().value as string);
    this.checked.set(token, claims);
    return claims;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
