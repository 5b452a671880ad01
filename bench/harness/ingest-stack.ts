import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Pool } from 'pg';
import { databaseConfig, loadConfig, redisConfig } from '@letterbox/config';
import { createDatabase } from '@letterbox/db';
import { QUEUE_OF, queueKeyPrefix, workerConnection, type QueueName } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { unlinkKeys } from '@letterbox/testing';
import { ensureIngestRecipients, type IngestRecipient } from '../data/ingest-users';
import { builtApp, portTaken } from './bench-apps';
import { bayesNote } from './rspamd-bayes';
import { answersHealth, startService, type ChildService } from './child-service';
import { machineCpuTicks, mainThreadSchedSeconds, processIds, redisServerPid, treeCpuSeconds } from './process-tree';

/**
 * The ingest pipeline as the ingest scenarios run it: the ingest app, its worker and, for
 * the burst, the notify worker and a mock FCM, all started here from dist/ on a queue
 * namespace, ports and storage directory of their own, so nothing of `npm start` or of
 * a test run is touched, and everything is taken away again at the end.
 */
export const INGEST_BENCH_PREFIX = 'ingest-bench';
export const INGEST_BENCH_HTTP_PORT = 3932;
/** Not 2925: the harness's mock providers take that one. */
export const INGEST_BENCH_SMTP_PORT = 2932;
/**
 * The mock providers of the ingest bench: not the harness's 3925/2925 (bench-apps.ts), so
 * that it can start while another scenario's mock runs (the figures then share the CPU).
 */
export const INGEST_BENCH_MOCK_HTTP_PORT = 3935;
export const INGEST_BENCH_MOCK_SMTP_PORT = 2935;
export const INGEST_BENCH_MOCK_DNS_PORT = 5935;
/**
 * The ingest apps a scenario may start side by side on the same queues: the one that checks
 * incoming mail (its defaults), and one with the checks off (INGEST_VERIFY_SENDERS=false),
 * to measure what the checks cost in the same run.
 */
export const INGEST_APPS = {
  ingest: { httpPort: INGEST_BENCH_HTTP_PORT, smtpPort: INGEST_BENCH_SMTP_PORT, env: {} },
  'ingest-unchecked': { httpPort: 3933, smtpPort: 2933, env: { INGEST_VERIFY_SENDERS: 'false' } },
} as const;
export type IngestAppName = keyof typeof INGEST_APPS;
/** The ingest app's default gateway token. */
export const INGEST_BENCH_TOKEN = 'letterbox-ingest-demo';
/** The mock FCM's default latency (FCM's HTTP v1 API takes tens of milliseconds). */
export const MOCK_FCM_LATENCY_MS = 50;
/** --worker-env settings that mean something to the ingest worker too. */
const SHARED_WORKER_SETTINGS = ['DATABASE_POOL_SIZE', 'UV_THREADPOOL_SIZE', 'NODE_OPTIONS'];

const DEVICE_TOKEN_PREFIX = 'ingest-bench-device-';

export interface QueueCounts {
  /** Waiting, prioritized and delayed: not yet taken by a worker. */
  waiting: number;
  active: number;
  workers: number;
}

export interface CpuSnapshot {
  at: number;
  seconds: Record<string, number>;
  machine: { busy: number; total: number };
}

export class IngestStack {
  readonly storageDir = path.join(tmpdir(), `letterbox-ingest-bench-${process.pid}`);
  private readonly services = new Map<string, ChildService>();
  private mock?: ChildService;
  private readonly mockControl = new URL(`http://127.0.0.1:${INGEST_BENCH_MOCK_HTTP_PORT}`);

  private constructor(
    readonly sql: Pool,
    private readonly redis: RedisConnection,
    private readonly ingestQueue: Queue,
    private readonly notifyQueue: Queue,
    readonly recipients: IngestRecipient[],
    private readonly redisPort: number,
  ) {}

  /** Makes the recipients if missing, checks that nothing else uses the bench's ports and queues, and clears what a killed run left. */
  static async open(): Promise<IngestStack> {
    const { DATABASE_URL, ...settings } = loadConfig({ ...databaseConfig, ...redisConfig });
    const appPorts = Object.values(INGEST_APPS).flatMap((app) => [app.httpPort, app.smtpPort]);
    for (const port of [...appPorts, INGEST_BENCH_MOCK_HTTP_PORT, INGEST_BENCH_MOCK_SMTP_PORT, INGEST_BENCH_MOCK_DNS_PORT]) {
      if (await portTaken(port)) throw new Error(`port ${port} is taken; stop what listens there (an ingest app or mock providers left over from a run?)`);
    }
    const db = createDatabase({ url: DATABASE_URL, poolSize: 2, applicationName: 'letterbox-bench-ingest-prepare' });
    let recipients: IngestRecipient[];
    try {
      recipients = await ensureIngestRecipients(db);
    } finally {
      await db.close();
    }
    const sql = new Pool({ connectionString: DATABASE_URL, max: 3, application_name: 'letterbox-bench-ingest' });
    const redis = workerConnection(settings);
    const queue = (name: QueueName) => new Queue(name, { connection: redis, prefix: queueKeyPrefix(INGEST_BENCH_PREFIX, name, redis) });
    const redisPort = Number(new URL(settings.REDIS_URL).port || 6379);
    const stack = new IngestStack(sql, redis, queue(QUEUE_OF['ingest-mail']), queue(QUEUE_OF['notify-new-mail']), recipients, redisPort);
    try {
      const consumers = (await stack.ingestQueue.getWorkersCount()) + (await stack.notifyQueue.getWorkersCount());
      if (consumers > 0) throw new Error(`${consumers} worker(s) already consume the ${INGEST_BENCH_PREFIX}: queues; another ingest bench running?`);
      await stack.clear();
      await mkdir(stack.storageDir, { recursive: true });
      return stack;
    } catch (error) {
      await stack.closeConnections();
      throw error;
    }
  }

  get userIds(): number[] {
    return this.recipients.map((recipient) => recipient.id);
  }

  /** What every app of the pipeline shares: the queue namespace and the storage. */
  private get sharedEnv(): Record<string, string> {
    return { QUEUE_PREFIX: INGEST_BENCH_PREFIX, STORAGE_DIR: this.storageDir, STORAGE_COMPRESS: 'none' };
  }

  /** Where an ingest app started here takes POST /v2/inbound. */
  baseOf(app: IngestAppName): URL {
    return new URL(`http://127.0.0.1:${INGEST_APPS[app].httpPort}`);
  }

  /**
   * An ingest app (see INGEST_APPS), its checks of incoming mail asking the mock providers'
   * DNS, which must be running (startMockProviders). `nodeArgs` go before the script, e.g.
   * `--cpu-prof`, which NODE_OPTIONS may not hold.
   */
  async startIngest(env: Record<string, string> = {}, nodeArgs: string[] = [], app: IngestAppName = 'ingest'): Promise<ChildService> {
    const base = this.baseOf(app);
    const service = await startService({
      name: `the ${app} app`,
      args: ['--enable-source-maps', ...nodeArgs, builtApp('ingest')],
      env: {
        ...this.sharedEnv,
        INGEST_HOST: '127.0.0.1',
        INGEST_HTTP_PORT: String(INGEST_APPS[app].httpPort),
        INGEST_SMTP_PORT: String(INGEST_APPS[app].smtpPort),
        INGEST_TOKEN: INGEST_BENCH_TOKEN,
        DNS_SERVERS: `127.0.0.1:${INGEST_BENCH_MOCK_DNS_PORT}`,
        ...INGEST_APPS[app].env,
        ...env,
      },
      // It has no /health; its OpenAPI document answers once it listens.
      ready: async () => {
        try {
          return (await fetch(new URL('/docs/openapi.json', base), { signal: AbortSignal.timeout(1000) })).ok;
        } catch {
          return false;
        }
      },
    });
    this.services.set(app, service);
    return service;
  }

  /** An ingest worker with the given settings on top of its defaults (and of the shared --worker-env ones). */
  async startIngestWorker(env: Record<string, string>, workerEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ChildService> {
    const before = await this.ingestQueue.getWorkersCount();
    const service = await startService({
      name: 'the ingest worker',
      args: ['--enable-source-maps', ...nodeArgs, builtApp('ingest-worker')],
      env: { ...this.sharedEnv, ...sharedWorkerEnv(workerEnv), ...env },
      ready: async () => (await this.ingestQueue.getWorkersCount()) > before,
      // It finishes its batches in flight when stopped.
      stopGraceMs: 15_000,
    });
    this.services.set('ingest-worker', service);
    return service;
  }

  async stopIngestWorker(): Promise<void> {
    await this.services.get('ingest-worker')?.stop();
    this.services.delete('ingest-worker');
  }

  /** Mock providers on the ingest bench's ports (their FCM at MOCK_FCM_LATENCY_MS): the DNS the ingest apps' checks ask, and the FCM the notify worker sends to. */
  async startMockProviders(): Promise<ChildService> {
    this.mock ??= await startService({
      name: 'the mock providers',
      args: ['--enable-source-maps', builtApp('mock-providers')],
      env: {
        MOCK_SMTP_PORT: String(INGEST_BENCH_MOCK_SMTP_PORT),
        MOCK_PROVIDERS_HTTP_PORT: String(INGEST_BENCH_MOCK_HTTP_PORT),
        MOCK_DNS_PORT: String(INGEST_BENCH_MOCK_DNS_PORT),
        MOCK_PROVIDERS_HOST: '127.0.0.1',
        MOCK_FCM_LATENCY_MS: String(MOCK_FCM_LATENCY_MS),
      },
      ready: () => answersHealth(this.mockControl),
    });
    return this.mock;
  }

  /** The mock providers, and a notify worker sending to them. */
  async startNotifyPath(): Promise<{ mock: ChildService; worker: ChildService }> {
    const mock = await this.startMockProviders();
    const before = await this.notifyQueue.getWorkersCount();
    const worker = await startService({
      name: 'the notify worker',
      args: ['--enable-source-maps', builtApp('notify-worker')],
      env: { ...this.sharedEnv, FCM_MOCK_URL: this.mockControl.origin },
      ready: async () => (await this.notifyQueue.getWorkersCount()) > before,
      stopGraceMs: 15_000,
    });
    this.services.set('notify-worker', worker);
    return { mock, worker };
  }

  /** One device per recipient, as the devices API would register it. */
  async registerDevices(): Promise<void> {
    await this.sql.query(
      `INSERT INTO devices (user_id, token, platform) SELECT id, $2 || id, 'android' FROM unnest($1::int[]) AS id ON CONFLICT (token) DO NOTHING`,
      [this.userIds, DEVICE_TOKEN_PREFIX],
    );
  }

  /** The mock FCM's count of accepted messages since its last reset. */
  async notifiedCount(): Promise<number> {
    return ((await this.mockCall('GET', '/fcm/messages?limit=0')) as { accepted: number }).accepted;
  }

  /** When the mock FCM accepted each kept message (epoch ms), and which mail it announced. */
  async notifications(limit: number): Promise<Array<{ mailId: number; acceptedAt: number }>> {
    const { items } = (await this.mockCall('GET', `/fcm/messages?limit=${limit}`)) as { items: Array<{ data?: Record<string, string>; acceptedAt: string }> };
    return items.map((item) => ({ mailId: Number(item.data?.mailId), acceptedAt: Date.parse(item.acceptedAt) }));
  }

  async resetNotifications(): Promise<void> {
    if (this.mock) await this.mockCall('DELETE', '/fcm/messages');
  }

  async storedCount(): Promise<number> {
    const { rows } = await this.sql.query<{ count: string }>('SELECT count(*) FROM mails WHERE user_id = ANY($1)', [this.userIds]);
    return Number(rows[0].count);
  }

  /** When each of the recipients' mails was stored (the inserting transaction's start, epoch ms). */
  async storedTimes(): Promise<number[]> {
    const { rows } = await this.sql.query<{ at: string }>('SELECT extract(epoch FROM created_at) * 1000 AS at FROM mails WHERE user_id = ANY($1)', [
      this.userIds,
    ]);
    return rows.map((row) => Number(row.at));
  }

  async ingestQueueCounts(): Promise<QueueCounts> {
    return countsOf(this.ingestQueue);
  }

  /** Stops the ingest workers from taking jobs (those taken go on) until resumed; intake still queues. A clear() undoes it too. */
  async pauseIngestQueue(): Promise<void> {
    await this.ingestQueue.pause();
  }

  async resumeIngestQueue(): Promise<void> {
    await this.ingestQueue.resume();
  }

  /** What rspamd's Bayes has learned: about half of the spam stage's cost once it classifies. */
  spamClassifierNote(): Promise<string> {
    return bayesNote(this.redis);
  }

  /** Ingest jobs that used up their attempts. */
  async failedIngestJobs(): Promise<number> {
    return (await this.ingestQueue.getJobCounts('failed')).failed ?? 0;
  }

  async notifyQueueCounts(): Promise<QueueCounts> {
    return countsOf(this.notifyQueue);
  }

  /** The last few KB a service started here wrote (its logged errors). */
  outputTail(name: IngestAppName | 'ingest-worker' | 'notify-worker'): string {
    return this.services.get(name)?.outputTail() ?? '';
  }

  /** The main thread of a service started here: seconds on a core and seconds runnable but waiting for one, so far. */
  mainThread(name: IngestAppName | 'ingest-worker' | 'notify-worker'): { running: number; waiting: number } {
    const service = this.services.get(name);
    return service ? mainThreadSchedSeconds(service.pid) : { running: 0, waiting: 0 };
  }

  /** CPU seconds so far of the apps started here, PostgreSQL, Redis and this process. */
  cpuSnapshot(): CpuSnapshot {
    const seconds: Record<string, number> = {};
    for (const [name, service] of this.services) seconds[name] = treeCpuSeconds(service.pid);
    if (this.mock) seconds.mock = treeCpuSeconds(this.mock.pid);
    for (const [name, pid] of Object.entries(serverPids(this.redisPort))) seconds[name] = treeCpuSeconds(pid);
    const usage = process.cpuUsage();
    seconds.bench = (usage.user + usage.system) / 1e6;
    return { at: performance.now(), seconds, machine: machineCpuTicks() };
  }

  /** Takes away the recipients' mail and the notifications counted, between runs while the workers run (the Message-IDs of each run are new anyway). */
  async clearMail(): Promise<void> {
    await this.sql.query('DELETE FROM inbound_messages WHERE user_id = ANY($1)', [this.userIds]);
    await this.sql.query('DELETE FROM mails WHERE user_id = ANY($1)', [this.userIds]);
    await this.resetNotifications();
  }

  /**
   * Takes away the recipients' mail (their mailbox counters follow), their claims of
   * Message-IDs, the notifications counted, and every key of the bench's queue namespace
   * (jobs, remembered Message-IDs, live-event history). Only while no worker runs.
   */
  async clear(): Promise<void> {
    await this.clearMail();
    await unlinkKeys(this.redis, `${INGEST_BENCH_PREFIX}:*`);
  }

  /** Stops everything started here, then leaves the database, Redis and the disk as they were (the recipients stay). */
  async close(): Promise<string[]> {
    const notes: string[] = [];
    for (const service of [...this.services.values()].reverse()) await service.stop();
    this.services.clear();
    await this.mock?.stop();
    this.mock = undefined;
    try {
      await this.clear();
      await this.sql.query('DELETE FROM devices WHERE user_id = ANY($1) AND token LIKE $2', [this.userIds, `${DEVICE_TOKEN_PREFIX}%`]);
      await rm(this.storageDir, { recursive: true, force: true });
      notes.push(`clean-up: the run's mail, Message-ID claims, devices, ${INGEST_BENCH_PREFIX}:* Redis keys and stored messages (${this.storageDir}) removed`);
    } catch (error) {
      notes.push(`WARNING: clean-up failed: ${(error as Error).message}`);
    } finally {
      await this.closeConnections();
    }
    return notes;
  }

  private async closeConnections(): Promise<void> {
    await this.ingestQueue.close();
    await this.notifyQueue.close();
    this.redis.disconnect();
    await this.sql.end();
  }

  private async mockCall(method: string, route: string): Promise<unknown> {
    if (!this.mock) throw new Error('the mock providers are not running');
    const response = await fetch(new URL(route, this.mockControl), { method, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${method} ${route} of the mock providers answered ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  }
}

/** Cores each process used between two snapshots (CPU seconds ÷ wall seconds), the rest of the machine's (`others`), and its busy cores. */
export function coresBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { seconds: number; cores: Record<string, number>; cpuSeconds: Record<string, number>; machineBusyCores: number } {
  const wall = (after.at - before.at) / 1000;
  const cpuSeconds = Object.fromEntries(Object.keys(after.seconds).map((name) => [name, after.seconds[name] - (before.seconds[name] ?? 0)]));
  const machineBusyCores = ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * cpus().length;
  const ours = Object.values(cpuSeconds).reduce((sum, value) => sum + value, 0);
  // What the machine spent on anything else: other engineers' builds and tests, the kernel's own work.
  cpuSeconds.others = Math.max(0, machineBusyCores * wall - ours);
  return {
    seconds: wall,
    cpuSeconds,
    cores: Object.fromEntries(Object.entries(cpuSeconds).map(([name, value]) => [name, value / wall])),
    machineBusyCores,
  };
}

async function countsOf(queue: Queue): Promise<QueueCounts> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
  return {
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
    active: counts.active ?? 0,
    workers: await queue.getWorkersCount(),
  };
}

function sharedWorkerEnv(workerEnv: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(workerEnv).filter(([name]) => SHARED_WORKER_SETTINGS.includes(name)));
}

/**
 * The PostgreSQL postmaster (its tree holds every backend, those of other clients too) and
 * the Redis server on `redisPort`, when this user may read them in /proc.
 */
function serverPids(redisPort: number): Record<string, number> {
  const pids: Record<string, number> = {};
  const redis = redisServerPid(redisPort);
  if (redis !== undefined) pids.redis = redis;
  const commOf = (pid: number | string) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  for (const pid of processIds()) {
    if (commOf(pid) !== 'postgres') continue;
    let stat = '';
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const parent = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (commOf(parent) !== 'postgres') {
      pids.postgres = pid;
      break;
    }
  }
  return pids;
}

export interface PostAnswer {
  /** 0 when no answer came (connection error, timeout). */
  status: number;
  ms: number;
  error?: string;
}

/**
 * One POST on a connection of its own, closed after the answer, as from a gateway of its
 * own: no connection is reused between requests or runs.
 */
export function postOnce(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostAnswer> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const finish = (status: number, error?: string) => resolve({ status, ms: performance.now() - sent, ...(error ? { error } : {}) });
    const request = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: timeoutMs },
      (response) => {
        response.resume();
        response.once('end', () => finish(response.statusCode ?? 0));
        response.once('error', (error) => finish(0, error.message));
      },
    );
    request.once('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.once('error', (error) => finish(0, (error as NodeJS.ErrnoException).code ?? error.message));
    request.end(body);
  });
}
