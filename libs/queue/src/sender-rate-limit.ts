import type { RedisConnection } from '@letterbox/redis';

/** When a sender's message may reach the provider: in how many milliseconds, and at what time on Redis's clock. */
export interface SenderSlot {
  waitMs: number;
  dueAt: number;
}

/**
 * GCRA per sender, shared by every worker process. The sender's hash holds two theoretical
 * arrival times: `tat`, the earliest moment its next reserved slot keeps to the rate, and
 * `dep`, the same for its next departure. A caller reserves the slot max(earliest, tat −
 * tolerance), where earliest is now plus the lead, and moves `tat` on by one interval: each
 * caller gets a slot of its own, one interval after the last one given, from the future if
 * need be, instead of all of them waking together to find the limit reached again. The
 * scripts read the clock of the Redis node that holds the key (one key each, so a cluster
 * routes them there), so workers with skewed clocks agree.
 */
const RESERVE_SLOT = `
local interval = 1000 / tonumber(ARGV[1])
local tolerance = (tonumber(ARGV[2]) - 1) * interval
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local earliest = now + tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tat', 'dep')
local tat = math.max(tonumber(state[1]) or earliest, earliest)
local due = math.max(earliest, tat - tolerance)
tat = tat + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, tonumber(state[2]) or now) - now) + 1000)
return { math.ceil(due - now), math.ceil(due) }
`;

/**
 * The same rule applied when a message actually leaves, to `dep`: a message that reaches
 * its slot late (its preparation overran, the process stalled) moves the departures after it,
 * so the ones on time behind it wait instead of bunching up with it at the provider. A wait
 * imposed here also moves `tat`: the slots not yet given follow the departures.
 */
const DEPART = `
local interval = 1000 / tonumber(ARGV[1])
-- A tenth of an interval more: timers fire a few milliseconds late, unevenly, and that must not push every later slot back.
local tolerance = (tonumber(ARGV[2]) - 1) * interval + interval / 10
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tat', 'dep')
local dep = math.max(tonumber(state[2]) or now, now)
local wait = math.max(0, dep - tolerance - now)
local tat = (tonumber(state[1]) or now) + wait
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat), 'dep', string.format('%.3f', dep + interval))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, dep + interval) - now) + 1000)
return math.ceil(wait)
`;

/** Leaves one slot and one departure of the sender empty. */
const PUSH_BACK = `
local interval = 1000 / tonumber(ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tat', 'dep')
local tat = math.max(tonumber(state[1]) or now, now) + interval
local dep = math.max(tonumber(state[2]) or now, now) + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat), 'dep', string.format('%.3f', dep))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, dep) - now) + 1000)
`;

/** Milliseconds from now until a time on the clock of the node that holds the sender's key; the key itself is not read. */
const UNTIL = `
local time = redis.call('TIME')
return math.ceil(tonumber(ARGV[1]) - (tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000))
`;

export class SenderRateLimit {
  /**
   * `burst` messages may share one moment; past them, one per 1/`ratePerSecond`. `leadMs`
   * puts every slot at least that far ahead, so a caller has the time to prepare its
   * message and send it at the slot rather than some varying delay after it.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly prefix = 'letterbox',
    readonly leadMs = 0,
  ) {}

  /** Reserves the sender's next slot; it is the caller's, who must not reserve another for the same message. */
  async reserve(sender: string): Promise<SenderSlot> {
    const [waitMs, dueAt] = (await this.redis.eval(RESERVE_SLOT, 1, this.key(sender), this.ratePerSecond, this.burst, this.leadMs)) as [number, number];
    return { waitMs: Number(waitMs), dueAt: Number(dueAt) };
  }

  /**
   * Records that one of the sender's messages leaves now, and returns how long it must wait
   * first (0 mostly): longer when a message before it left late and would otherwise be
   * followed too closely.
   */
  async depart(sender: string): Promise<number> {
    return Number(await this.redis.eval(DEPART, 1, this.key(sender), this.ratePerSecond, this.burst));
  }

  /** Milliseconds until a slot's `dueAt`, negative once it passed, on the same clock that gave it. */
  async untilDue(sender: string, dueAt: number): Promise<number> {
    return Number(await this.redis.eval(UNTIL, 1, this.key(sender), dueAt));
  }

  /** Leaves one slot and one departure of the sender empty: the provider saw it faster than it allows, so its count is ahead of ours. */
  async pushBack(sender: string): Promise<void> {
    await this.redis.eval(PUSH_BACK, 1, this.key(sender), this.ratePerSecond);
  }

  private key(sender: string): string {
    // Not the token bucket's old `sender-rate:` key: workers of both versions at once would each find the other's fields missing.
    return `${this.prefix}:sender-slot:${sender.toLowerCase()}`;
  }
}
