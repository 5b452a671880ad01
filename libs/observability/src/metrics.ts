import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';
import { within } from './within';

/** Seconds, from a fast point query to a slow upload. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route template and status, from arrival to the last byte sent',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: REQUEST_BUCKETS,
});

export const jobDuration = new Histogram({
  name: 'letterbox_job_duration_seconds',
  help: 'Queue jobs by name and outcome, from the start of the handler to its end',
  labelNames: ['queue', 'job', 'outcome'] as const,
  buckets: JOB_BUCKETS,
});

export const dbPoolAcquire = new Histogram({
  name: 'letterbox_db_pool_acquire_seconds',
  help: 'Time a query waited for a pooled database connection',
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
});

export const sseConnections = new Gauge({ name: 'letterbox_sse_connections', help: 'Open /v2/events streams' });

export const sendsTotal = new Counter({ name: 'letterbox_sends_total', help: 'Sends that reached a final status', labelNames: ['status'] as const });

export const inboundTotal = new Counter({
  name: 'letterbox_inbound_total',
  help: 'Incoming messages accepted or refused, by channel and reason',
  labelNames: ['channel', 'outcome', 'reason'] as const,
});

export const pushTotal = new Counter({ name: 'letterbox_push_total', help: 'Push notifications by outcome, per device', labelNames: ['outcome'] as const });

/** The database pools of this process, read at each scrape. */
export interface PoolGauge {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}
/** Which server a pool's connections go to: the primary, or the read replica (DATABASE_READ_URL). */
export type PoolRole = 'primary' | 'replica';
const pools = new Map<PoolGauge, PoolRole>();
new Gauge({
  name: 'letterbox_db_pool_connections',
  help: 'Database pool connections: total, idle, and queries waiting for one; by server (primary or replica)',
  labelNames: ['state', 'pool'] as const,
  collect() {
    const sums = { primary: [0, 0, 0], replica: [0, 0, 0] };
    for (const [pool, role] of pools) {
      const sum = sums[role];
      [sum[0], sum[1], sum[2]] = [sum[0] + pool.totalCount, sum[1] + pool.idleCount, sum[2] + pool.waitingCount];
    }
    for (const role of ['primary', 'replica'] as const) {
      if (role === 'replica' && ![...pools.values()].includes('replica')) continue;
      const [total, idle, waiting] = sums[role];
      this.set({ state: 'total', pool: role }, total);
      this.set({ state: 'idle', pool: role }, idle);
      this.set({ state: 'waiting', pool: role }, waiting);
    }
  },
});

export function watchPool(pool: PoolGauge, role: PoolRole = 'primary'): void {
  pools.set(pool, role);
}

/** A queue whose job counts are read at each scrape (one Redis round trip per queue). */
export interface QueueDepthSource {
  name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'];
/** A scrape does not wait longer for Redis: during an outage it reports what it has, and health says Redis is down. */
const QUEUE_COUNT_TIMEOUT_MS = 1000;
const queues = new Set<QueueDepthSource>();
new Gauge({
  name: 'letterbox_queue_jobs',
  help: 'Jobs in each queue by state',
  labelNames: ['queue', 'state'] as const,
  async collect() {
    await Promise.all(
      [...queues].map(async (queue) => {
        const counts = await within(queue.getJobCounts(...QUEUE_STATES), QUEUE_COUNT_TIMEOUT_MS).catch(() => undefined);
        if (counts) for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }),
    );
  },
});

export function watchQueueDepth(queue: QueueDepthSource): void {
  queues.add(queue);
}

export function unwatchQueueDepth(queue: QueueDepthSource): void {
  queues.delete(queue);
}

let defaultsCollected = false;

/** Node's own metrics (CPU, memory, event-loop lag), from the first call on; idempotent. */
function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics();
}

/** The app label on every series, and Node's own metrics from the start. */
export function startProcessMetrics(app: string): void {
  register.setDefaultLabels({ app });
  collectProcessMetrics();
}

/** The exposition a Prometheus scrape reads. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  collectProcessMetrics();
  return { contentType: register.contentType, body: await register.metrics() };
}

export const spamChecksTotal = new Counter({
  name: 'letterbox_spam_checks_total',
  help: 'Incoming messages rspamd was asked about, by outcome: scored, or stored unscored (timeout, unavailable, too-large)',
  labelNames: ['outcome'] as const,
});
