import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const HOST = '127.0.0.1';
const PORTS = [7001, 7002, 7003];
const NODES = PORTS.map((port) => `${HOST}:${port}`).join(',');
const DIR = path.join(os.tmpdir(), 'letterbox-redis-cluster');
const LOCK = path.join(DIR, 'setup.lock');
/** A lock older than this was left by a setup that died: no setup takes this long. */
const STALE_LOCK_MS = 120_000;

/**
 * Makes sure the tests' Redis Cluster runs (three masters on ports 7001-7003 of this host, no replicas, nothing
 * persisted), starting and creating it when it does not, and installing Debian's redis-server when missing, as
 * scripts/services.sh does for the main services. It stays up between runs, so when it is up this only asks it;
 * a lock keeps two test processes from setting it up at once. Synchronous, so test files can call it while
 * declaring their suites. Returns the nodes, as REDIS_CLUSTER_NODES names them.
 */
export function ensureRedisCluster(): string {
  if (clusterIsUp()) return NODES;
  mkdirSync(DIR, { recursive: true });
  withLock(() => {
    if (!clusterIsUp()) setUpCluster();
  });
  return NODES;
}

/** The tests' Redis Cluster's nodes if it runs, without starting it. */
export function runningRedisCluster(): string | undefined {
  return clusterIsUp() ? NODES : undefined;
}

function clusterIsUp(): boolean {
  return PORTS.every((port) => cli(port, 'cluster', 'info')?.includes('cluster_state:ok'));
}

function setUpCluster(): void {
  installRedisIfMissing();
  for (const port of PORTS) {
    if (cli(port, 'ping') !== undefined) continue;
    const dir = path.join(DIR, String(port));
    mkdirSync(dir, { recursive: true });
    run('redis-server', [
      ...['--port', String(port), '--bind', HOST, '--dir', dir, '--logfile', path.join(dir, 'redis.log')],
      ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000'],
      ...['--daemonize', 'yes', '--save', '', '--appendonly', 'no'],
    ]);
  }
  waitUntil(() => PORTS.every((port) => cli(port, 'ping') !== undefined), 'the cluster’s nodes to answer');
  // A cluster that is not ok was never created, or half created by a setup that died: its test keys go with it.
  for (const port of PORTS) {
    cli(port, 'flushall');
    cli(port, 'cluster', 'reset', 'hard');
  }
  run('redis-cli', ['--cluster', 'create', ...PORTS.map((port) => `${HOST}:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
  waitUntil(clusterIsUp, 'cluster_state:ok on every node');
}

function installRedisIfMissing(): void {
  if (!spawnSync('redis-server', ['--version']).error) return;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).error) {
    throw new Error('the Redis Cluster tests need redis-server and redis-cli: install Redis 7 (Debian: apt-get install redis-server)');
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], env);
  run('apt-get', ['install', '-y', '-qq', 'redis-server'], env);
}

/** What redis-cli printed, or undefined when the node did not answer. */
function cli(port: number, ...args: string[]): string | undefined {
  const result = spawnSync('redis-cli', ['-h', HOST, '-p', String(port), ...args], { encoding: 'utf8', timeout: 5000 });
  return result.status === 0 && !result.stdout.startsWith('ERR') ? result.stdout : undefined;
}

function run(command: string, args: string[], env = process.env): void {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, { encoding: 'utf8', env, timeout: 300_000 });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? `${result.stderr}${result.stdout}`.trim()}`);
  }
}

function withLock(setUp: () => void): void {
  waitUntil(takeLock, 'the other test process to finish setting up the Redis Cluster', STALE_LOCK_MS + 10_000);
  try {
    setUp();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

function takeLock(): boolean {
  try {
    closeSync(openSync(LOCK, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (Date.now() - lockTime() > STALE_LOCK_MS) rmSync(LOCK, { force: true });
    return false;
  }
}

function lockTime(): number {
  try {
    return statSync(LOCK).mtimeMs;
  } catch {
    // Released meanwhile: not stale.
    return Date.now();
  }
}

function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + timeoutMs; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    Atomics.wait(pause, 0, 0, 100);
  }
}
