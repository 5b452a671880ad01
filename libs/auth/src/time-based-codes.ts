import { generateSecret, generateURI, verify } from 'otplib';
import type { RedisConnection } from '@letterbox/redis';
import { isTimeBasedCode } from './recovery-codes';

/** RFC 6238's 30 s step; a code of the step before or after is taken too (a clock off by a little, a slow typist). */
const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = PERIOD_SECONDS;
/** Longer than the window a code is valid in: past it, no code of a step remembered would verify anyway. */
const LAST_STEP_MS = 4 * PERIOD_SECONDS * 1000;

/** Takes the step (ARGV[1]) only when it is later than the last one taken: a code is used once. */
const TAKE_STEP_SCRIPT = `
local last = tonumber(redis.call('GET', KEYS[1]) or '-1')
if last >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/**
 * TOTP (RFC 6238) with otplib: secrets for authenticator apps, and codes checked once. The last step a user's code
 * was taken for is kept in Redis (every process shares it), so a code seen over a shoulder or in a log cannot be
 * used again within its window, nor can an older one.
 */
export class TimeBasedCodes {
  constructor(
    private readonly redis: RedisConnection,
    private readonly namespace: string,
    private readonly issuer: string,
  ) {}

  /** A new secret, base32, 160 bits. */
  newSecret(): string {
    return generateSecret();
  }

  /** What an authenticator app scans (otpauth://totp/...). */
  uri(secret: string, account: string): string {
    return generateURI({ issuer: this.issuer, label: account, secret, period: PERIOD_SECONDS });
  }

  /** Whether the code is the user's for now (±1 step) and no code of that step or a later one was taken before; takes it. */
  async take(userId: number, secret: string, code: string): Promise<boolean> {
    if (!isTimeBasedCode(code)) return false;
    const result = await verify({ secret, token: code, period: PERIOD_SECONDS, epochTolerance: TOLERANCE_SECONDS });
    // The union's HOTP side has no time step; a TOTP verification always gives one.
    if (!result.valid || !('timeStep' in result)) return false;
    return (await this.redis.eval(TAKE_STEP_SCRIPT, 1, `${this.namespace}:totp:last-step:${userId}`, result.timeStep, LAST_STEP_MS)) === 1;
  }
}
