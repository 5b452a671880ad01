import type { RedisConnection } from '@letterbox/redis';

/**
 * A token bucket per sender in Redis, shared by every worker process, that lends: a caller
 * finding it empty still takes a token, from the future, and is told when that token is
 * due. Each caller over the limit thus gets a slot of its own, one interval after the last
 * one given (GCRA's schedule), instead of all of them waking together to find the bucket
 * empty again. The script reads Redis's own clock, so workers with skewed clocks agree.
 * It answers 0 when the token is there now, else how many milliseconds until it is due.
 */
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000) - 1
local wait = 0
if tokens < 0 then wait = math.ceil(-tokens * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], wait + math.ceil(burst * 1000 / rate) + 1000)
return wait
`;

export class SenderRateLimit {
  constructor(
    private readonly redis: RedisConnection,
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly prefix = 'letterbox',
  ) {}

  /**
   * Takes one message's token for `sender`: 0 if it is there now, else the milliseconds
   * until it is due. Either way the token is the caller's: one who waits must not take again.
   */
  async take(sender: string): Promise<number> {
    const wait = await this.redis.eval(TAKE_TOKEN, 1, `${this.prefix}:sender-rate:${sender.toLowerCase()}`, this.ratePerSecond, this.burst);
    return Number(wait);
  }
}
