import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '@letterbox/testing';
import { answersHealth, startService, type ChildService } from './child-service';
import type { SendQueue } from './send-queue';

/**
 * Ports of the mock providers the harness starts for itself, away from the 1025/3005/5354 of
 * `npm start`, so that a mock someone else runs (and its counts) is never touched.
 */
export const BENCH_MOCK_SMTP_PORT = 2925;
export const BENCH_MOCK_HTTP_PORT = 3925;
export const BENCH_MOCK_DNS_PORT = 5925;

/** The provider being imitated: about 4 s to accept a mail, 5 mails/s per account with a burst of 5. */
export const PROVIDER_DEFAULTS = { MOCK_SMTP_LATENCY_MS: '4000', MOCK_SMTP_RATE_PER_SECOND: '5', MOCK_SMTP_BURST: '5' };

export interface AccountCounts {
  accepted: number;
  rateLimited: number;
  tempFailed: number;
  permFailed: number;
  dropped: number;
}

export interface MockProviders extends ChildService {
  smtpPort: number;
  control: URL;
  /** Outcomes per account (MAIL FROM) since the last reset. */
  counts(): Promise<Record<string, AccountCounts>>;
  /** Forgets the kept mails, the counts and the per-account rate limits. */
  reset(): Promise<void>;
  config(): Promise<{ latencyMs: number; ratePerSecond: number; burst: number }>;
  /** The latest kept accepted mails: their Message-ID and when the provider answered 250. */
  accepted(limit: number): Promise<Array<{ messageId: string; account: string; acceptedAt: number }>>;
}

interface ReceivedMailView {
  account: string;
  acceptedAt: string;
  headers: Array<{ name: string; value: string }>;
}

/** Starts the built mock providers app (dist/) on the bench ports, with the provider's default behaviour unless told. */
export async function startMockProviders(env: Record<string, string> = {}): Promise<MockProviders> {
  const control = new URL(`http://127.0.0.1:${BENCH_MOCK_HTTP_PORT}`);
  if ((await answersHealth(control)) || (await portTaken(BENCH_MOCK_SMTP_PORT))) {
    throw new Error(`port ${BENCH_MOCK_HTTP_PORT} or ${BENCH_MOCK_SMTP_PORT} is taken; stop what listens there (mock providers left over?)`);
  }
  const service = await startService({
    name: 'the mock providers',
    args: ['--enable-source-maps', builtApp('mock-providers')],
    env: {
      ...PROVIDER_DEFAULTS,
      ...env,
      MOCK_SMTP_PORT: String(BENCH_MOCK_SMTP_PORT),
      MOCK_PROVIDERS_HTTP_PORT: String(BENCH_MOCK_HTTP_PORT),
      MOCK_DNS_PORT: String(BENCH_MOCK_DNS_PORT),
      MOCK_PROVIDERS_HOST: '127.0.0.1',
    },
    ready: () => answersHealth(control),
  });
  const call = async (method: string, route: string) => {
    const response = await fetch(new URL(route, control), { method, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${method} ${route} of the mock providers answered ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  };
  return {
    ...service,
    smtpPort: BENCH_MOCK_SMTP_PORT,
    control,
    counts: async () => ((await call('GET', '/smtp/accounts')) as { accounts: Record<string, AccountCounts> }).accounts,
    reset: async () => void (await call('DELETE', '/smtp/messages')),
    config: async () => (await call('GET', '/smtp/config')) as { latencyMs: number; ratePerSecond: number; burst: number },
    accepted: async (limit) =>
      ((await call('GET', `/smtp/messages?limit=${limit}`)) as { items: ReceivedMailView[] }).items.map((mail) => ({
        messageId: mail.headers.find((header) => header.name.toLowerCase() === 'message-id')?.value ?? '',
        account: mail.account,
        acceptedAt: Date.parse(mail.acceptedAt),
      })),
  };
}

/** The sum of the counts of some accounts (addresses in any case). */
export function countsOf(all: Record<string, AccountCounts>, accounts: string[]): AccountCounts {
  const wanted = new Set(accounts.map((account) => account.toLowerCase()));
  const sum: AccountCounts = { accepted: 0, rateLimited: 0, tempFailed: 0, permFailed: 0, dropped: 0 };
  for (const [account, counts] of Object.entries(all)) {
    if (!wanted.has(account.toLowerCase())) continue;
    for (const key of Object.keys(sum) as Array<keyof AccountCounts>) sum[key] += counts[key];
  }
  return sum;
}

/**
 * Starts the built delivery worker (dist/, or another build's `build` dir) on the send API's
 * queue, database and storage, with `env` on top (SMTP port, concurrency, ...), and waits
 * until it consumes the queue.
 */
export async function startDeliveryWorker(queue: SendQueue, env: Record<string, string>, build?: string): Promise<ChildService> {
  const before = (await queue.state()).workers;
  return startService({
    name: 'the delivery worker',
    args: ['--enable-source-maps', builtApp('delivery-worker', build)],
    env: { ...queue.sharedEnv, ...env },
    ready: async () => (await queue.state()).workers > before,
    // It finishes the deliveries in flight when stopped: up to the provider's latency.
    stopGraceMs: 15_000,
  });
}

/**
 * Starts the built ingest worker on the send API's queues, to store the Sent copies of the
 * sends queued there (its ops listener on any free port, beside the platform's), and waits
 * until it consumes their queue. Always this build's: its send API queued the copy jobs.
 */
export async function startCopyWorker(queue: SendQueue): Promise<ChildService> {
  const before = await queue.copyWorkers();
  return startService({
    name: 'the ingest worker storing Sent copies',
    args: ['--enable-source-maps', builtApp('ingest-worker')],
    env: { ...queue.sharedEnv, OPS_PORT: '0' },
    ready: async () => (await queue.copyWorkers()) > before,
    stopGraceMs: 15_000,
  });
}

/**
 * An app's entry in dist/ (the bench runs what `npm start` runs), or in another build's dist
 * dir; that one must sit inside this checkout (e.g. tmp/) to find its node_modules.
 */
export function builtApp(app: string, build = path.join(REPO_ROOT, 'dist')): string {
  const file = path.join(path.resolve(build), 'apps', app, 'src/main.js');
  if (!existsSync(file)) throw new Error(`${path.relative(process.cwd(), file)} is missing; build first: node -r @swc-node/register scripts/build.ts`);
  return file;
}

export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
