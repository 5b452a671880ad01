import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { testSettings } from './test-environment';
import { sleep } from './wait-for';

const run = promisify(execFile);

const PG_BIN = '/usr/lib/postgresql/15/bin';
const REPLICA_PORT = 5433;
const DATA_DIR = '/var/lib/postgresql/letterbox-test-replica';
const LOG_FILE = `${DATA_DIR}.log`;
/** Holds the primary's WAL until the replica has it: a replica that falls behind recycled WAL could never catch up. */
const SLOT = 'letterbox_test_replica';
const LOCK_FILE = path.join(os.tmpdir(), 'letterbox-test-replica.lock');

/**
 * The URL of a streaming replica of the test database, made with pg_basebackup the first
 * time (seconds) and left running between runs, so later calls only check it (milliseconds).
 * A replica that does not answer, is no standby, or does not stream is made again. Callers
 * in several processes at once take turns on a lock file.
 */
export async function ensureReadReplica(): Promise<string> {
  const primaryUrl = new URL(testSettings().DATABASE_URL);
  const replicaUrl = new URL(primaryUrl);
  replicaUrl.port = String(REPLICA_PORT);
  if (await isStreaming(primaryUrl, replicaUrl)) return replicaUrl.href;
  await underLock(async () => {
    if (await isStreaming(primaryUrl, replicaUrl)) return;
    await rebuild(primaryUrl);
    await waitUntilStreaming(primaryUrl, replicaUrl);
  });
  return replicaUrl.href;
}

async function isStreaming(primaryUrl: URL, replicaUrl: URL): Promise<boolean> {
  if (!existsSync(path.join(DATA_DIR, 'PG_VERSION'))) return false;
  try {
    const [standby] = await query<{ standby: boolean }>(replicaUrl.href, 'SELECT pg_is_in_recovery() AS standby');
    const [slot] = await query<{ active: boolean }>(superuserUrl(primaryUrl), 'SELECT active FROM pg_replication_slots WHERE slot_name = $1', [SLOT]);
    return Boolean(standby?.standby && slot?.active);
  } catch {
    return false;
  }
}

async function rebuild(primaryUrl: URL): Promise<void> {
  const primary = superuserUrl(primaryUrl);
  await installedServer();
  await stopReplica();
  await query(primary, 'SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [SLOT]);
  await allowReplication(primary);
  await rm(DATA_DIR, { recursive: true, force: true });
  await asPostgres(`${PG_BIN}/pg_basebackup`, [
    '-h',
    primaryUrl.hostname,
    '-p',
    primaryUrl.port || '5432',
    '-U',
    'postgres',
    '-D',
    DATA_DIR,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '-C',
    '-S',
    SLOT,
  ]);
  // Debian keeps a cluster's configuration outside its data directory: the copy has none of its own.
  await asPostgresFile(path.join(DATA_DIR, 'postgresql.conf'), await standbyConfiguration(primary));
  await asPostgresFile(path.join(DATA_DIR, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  await asPostgresFile(path.join(DATA_DIR, 'pg_ident.conf'), '');
  const options = `-p ${REPLICA_PORT} -c listen_addresses=127.0.0.1 -c hot_standby_feedback=on`;
  await asPostgres(`${PG_BIN}/pg_ctl`, ['-D', DATA_DIR, '-o', options, '-l', LOG_FILE, '-w', 'start']);
}

/** A standby refuses to start with fewer of these than its primary has. */
async function standbyConfiguration(primary: string): Promise<string> {
  const names = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];
  const rows = await query<{ name: string; setting: string }>(primary, 'SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [names]);
  return ['hot_standby = on', ...rows.map((row) => `${row.name} = ${row.setting}`)].join('\n') + '\n';
}

/** A replica whose data directory is gone still holds its port: its postmaster is stopped by its process id. */
async function stopReplica(): Promise<void> {
  if (existsSync(path.join(DATA_DIR, 'postmaster.pid'))) {
    await asPostgres(`${PG_BIN}/pg_ctl`, ['-D', DATA_DIR, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
  }
  const { stdout } = await run('ss', ['-Hltnp', `sport = :${REPLICA_PORT}`]);
  const pids = new Set([...stdout.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1])));
  for (const pid of pids) {
    const command = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (command.trim() !== 'postgres')
      throw new Error(`port ${REPLICA_PORT}, the test replica's, is held by ${command.trim() || 'an unknown process'} (${pid})`);
    process.kill(pid, 'SIGINT');
  }
  for (let waited = 0; pids.size > 0 && waited < 30_000; waited += 200) {
    for (const pid of pids) if (!isAlive(pid)) pids.delete(pid);
    await sleep(200);
  }
}

/** The primary's pg_hba.conf gets a replication line for 127.0.0.1, with the method of its host line there. */
async function allowReplication(primary: string): Promise<void> {
  const rules = await query<{ database: string[]; address: string | null; auth_method: string }>(
    primary,
    `SELECT database, address, auth_method FROM pg_hba_file_rules WHERE type = 'host' AND address = '127.0.0.1' ORDER BY line_number`,
  );
  if (rules.some((rule) => rule.database.includes('replication'))) return;
  const method = rules.find((rule) => rule.database.includes('all'))?.auth_method ?? 'trust';
  const [{ hba_file: hbaFile }] = await query<{ hba_file: string }>(primary, 'SHOW hba_file');
  const hba = await readFile(hbaFile, 'utf8');
  await writeFile(hbaFile, `${hba.endsWith('\n') ? hba : `${hba}\n`}host replication all 127.0.0.1/32 ${method}\n`);
  await query(primary, 'SELECT pg_reload_conf()');
}

async function waitUntilStreaming(primaryUrl: URL, replicaUrl: URL): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 250) {
    if (await isStreaming(primaryUrl, replicaUrl)) return;
    await sleep(250);
  }
  const log = await readFile(LOG_FILE, 'utf8').catch(() => '');
  throw new Error(`the test replica on port ${REPLICA_PORT} did not start streaming; its log ends:\n${log.slice(-2000)}`);
}

async function installedServer(): Promise<void> {
  if (existsSync(`${PG_BIN}/pg_basebackup`)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', 'postgresql-15'], { env });
}

/** One caller at a time builds the replica; a lock left by a process that died is taken over. */
async function underLock(work: () => Promise<void>): Promise<void> {
  for (let waited = 0; ; waited += 250) {
    try {
      const lock = await open(LOCK_FILE, 'wx');
      await lock.writeFile(String(process.pid));
      await lock.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(LOCK_FILE, 'utf8').catch(() => '0'));
      if (holder > 0 && !isAlive(holder)) await rm(LOCK_FILE, { force: true });
      else if (waited > 180_000) throw new Error(`${LOCK_FILE} has been held by process ${holder} for 3 minutes`);
      else await sleep(250);
    }
  }
  try {
    await work();
  } finally {
    await rm(LOCK_FILE, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function superuserUrl(primaryUrl: URL): string {
  return `postgresql://postgres@${primaryUrl.host}/postgres`;
}

async function query<Row>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

async function asPostgres(command: string, args: string[]): Promise<void> {
  await run('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: '/tmp' });
}

async function asPostgresFile(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  await run('chown', ['postgres:postgres', file]);
}
