import type { Redis } from 'ioredis';

/**
 * A token bucket per sender in Redis, shared by every worker process. The script reads
 * Redis's own clock, so workers on machines with skewed clocks still agree. It answers
 * 0 when a token was taken, else how many milliseconds until one will be there.
 */
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return wait
`;

export class SenderRateLimit {
  constructor(
    private readonly redis: Redis,
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly prefix = 'letterbox',
  ) {}

  /** Takes one send's token for `sender`: 0 if taken, else the milliseconds to wait first. */
  async take(sender: string): Promise<number> {
    const wait = await this.redis.eval(TAKE_TOKEN, 1, `${this.prefix}:sender-rate:${sender.toLowerCase()}`, this.ratePerSecond, this.burst);
    return Number(wait);
  }
}
