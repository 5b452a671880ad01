import { availableParallelism } from 'node:os';
import { hash } from '@node-rs/argon2';
import { hashPassword } from '@letterbox/auth';
import { databaseConfig, loadConfig } from '@letterbox/config';
import { createDatabase } from '@letterbox/db';
import { BENCH_PASSWORD } from '../data/bench-accounts';
import { deleteBenchUsers, ensureUsersBenchOffice, USERS_BENCH_ADMIN, USERS_BENCH_DOMAIN } from '../data/users-bench-office';
import type { BenchFixtures } from '../harness/bench-fixtures';
import { runCountedLoad } from '../harness/counted-load';
import type { LoadRequest } from '../harness/load-result';
import { spreadOf } from '../harness/load-result';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import { machineCpuTicks, treeCpuSeconds } from '../harness/process-tree';
import type { ProcedureOptions, ProcedureScenario } from './scenario';

/** What the issue asks: 10,000 users created through the API. */
const USERS = 10_000;
/** Requests in flight at once, as an administrator's import script (or autocannon) would keep them. */
const CONNECTIONS = 16;
/** Users created one request at a time, the naive way, for the ratio: a sample, as its rate is steady. */
const SEQUENTIAL_USERS = 200;
/** Password hashes timed in this process, one at a time and four at once, for the ceiling they set. */
const HASHES = 40;
const PATH = '/v2/admin/users';

export const userCreateScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'user-create',
  title: `${USERS.toLocaleString('en')} users created through the admin API (POST ${PATH}), signed in as an office administrator`,
  summary:
    `the read API running with the admin API (issue 29); makes the office ${USERS_BENCH_DOMAIN} and its administrator ${USERS_BENCH_ADMIN} if missing, ` +
    `creates ${USERS.toLocaleString('en')} users over ${CONNECTIONS} connections (autocannon, --connections overrides), then ${SEQUENTIAL_USERS} one request at a time, ` +
    `times the password hash alone, and deletes the users it made; about 15 minutes, the password hashes being most of it`,
  run: runUserCreate,
};

interface HashingFloor {
  /** Through libs/auth's hashPassword: one hash at a time in a process, as the API hashes. */
  oneAtATimeMs: number;
  /** @node-rs/argon2 alone, four at once (libuv's threads): what the machine could hash without the limit. */
  fourAtOnceMs: number;
}

async function runUserCreate(fixtures: BenchFixtures, options: ProcedureOptions): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const connections = options.connections ?? CONNECTIONS;
  const { DATABASE_URL } = loadConfig(databaseConfig);
  const db = createDatabase({ url: DATABASE_URL, poolSize: 2, applicationName: 'letterbox-bench-users-prepare' });
  let officeId: number;
  try {
    officeId = await ensureUsersBenchOffice(db);
  } finally {
    await db.close();
  }
  const notes: string[] = [];
  const leftOver = await deleteBenchUsers(fixtures.sql, officeId);
  if (leftOver > 0) notes.push(`deleted ${leftOver} users an earlier run left in ${USERS_BENCH_DOMAIN}`);

  const token = await fixtures.api.login(USERS_BENCH_ADMIN, BENCH_PASSWORD);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const run = Date.now().toString(36);
  let made = 0;
  const newUser = (): LoadRequest => {
    made += 1;
    const name = `u${run}-${made}`;
    return {
      method: 'POST',
      path: PATH,
      body: JSON.stringify({ email: `${name}@${USERS_BENCH_DOMAIN}`, displayName: `Bench ${name}`, password: `${name}-initial-password` }),
    };
  };
  const createOne = async (): Promise<{ status: number; ms: number; body: string }> => {
    const request = newUser();
    const began = performance.now();
    const response = await fetch(new URL(request.path, fixtures.api.base), { method: 'POST', headers, body: request.body });
    const body = await response.text();
    return { status: response.status, ms: performance.now() - began, body };
  };

  try {
    const first = await createOne();
    if (first.status === 404) throw new Error(`the read API at ${fixtures.api.base.origin} has no POST ${PATH}: run a build with issue 29's admin API`);
    if (first.status !== 201) throw new Error(`POST ${PATH} answered ${first.status}: ${first.body.slice(0, 300)}`);

    const hashing = await hashingFloor();
    const apiPid = (await fixtures.api.health()).pid;
    const cpuBefore = treeCpuSeconds(apiPid);
    const machineBefore = machineCpuTicks();
    const concurrent = await runCountedLoad({ base: fixtures.api.base, connections, amount: USERS, headers, next: newUser });
    const apiCpuSeconds = treeCpuSeconds(apiPid) - cpuBefore;
    const machineAfter = machineCpuTicks();
    const machineBusyCores = ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * coreCount();
    const created = concurrent.statuses['201'] ?? 0;
    const concurrentRate = created / concurrent.seconds;

    const sequentialStarted = performance.now();
    const sequential: Array<{ status: number; ms: number }> = [];
    for (let index = 0; index < SEQUENTIAL_USERS; index++) sequential.push(await createOne());
    const sequentialSeconds = (performance.now() - sequentialStarted) / 1000;
    const sequentialCreated = sequential.filter((answer) => answer.status === 201).length;
    const sequentialRate = sequentialCreated / sequentialSeconds;
    const sequentialLatency = spreadOf(sequential.map((answer) => answer.ms));

    const checked = await checkCreated(fixtures, officeId, run);
    const ceiling = 1000 / hashing.oneAtATimeMs;
    notes.push(
      `${created.toLocaleString('en')} of ${USERS.toLocaleString('en')} created in ${concurrent.seconds.toFixed(1)} s over ${connections} connections: ${concurrentRate.toFixed(1)} users/s` +
        (created < USERS ? `; other answers: ${JSON.stringify(concurrent.statuses)}, socket errors ${concurrent.socketErrors}` : ''),
      `the naive way, one request at a time: ${sequentialCreated} users in ${sequentialSeconds.toFixed(1)} s, ${sequentialRate.toFixed(1)} users/s; ` +
        `concurrent ÷ sequential ×${(concurrentRate / sequentialRate).toFixed(2)}`,
      `what bounds it: each user's initial password is hashed (argon2id, 19 MiB, 2 passes) and libs/auth hashes one at a time per process, ` +
        `so that a flood of hashes never takes the libuv threads mail reads need: ${hashing.oneAtATimeMs.toFixed(1)} ms a hash in this process before the load, a ceiling of ` +
        `${ceiling.toFixed(1)} users/s for one API process (the run reached ${((concurrentRate / ceiling) * 100).toFixed(0)}% of it; both move with the machine's other load). Four hashes at once would take ${hashing.fourAtOnceMs.toFixed(1)} ms each on this machine ` +
        `(${(1000 / hashing.fourAtOnceMs).toFixed(1)}/s): the limit costs ×${(hashing.oneAtATimeMs / hashing.fourAtOnceMs).toFixed(2)} on a bulk import, and concurrency gains little over one at a time for the same reason`,
      `the read API used ${(apiCpuSeconds / concurrent.seconds).toFixed(2)} cores meanwhile, the machine ${machineBusyCores.toFixed(2)} of ${coreCount()}`,
      checked,
    );
    const row = (name: string, users: number, seconds: number, rate: number, latency: { p50: number; p95: number; p99: number }) => [
      name,
      users.toLocaleString('en'),
      seconds.toFixed(1),
      rate.toFixed(1),
      `${latency.p50.toFixed(0)} / ${latency.p95.toFixed(0)} / ${latency.p99.toFixed(0)}`,
    ];
    return {
      scenario: userCreateScenario.name,
      title: userCreateScenario.title,
      startedAt,
      notes,
      table: {
        header: ['how', 'users created', 'seconds', 'users/s', 'latency p50 / p95 / p99 ms'],
        rows: [
          row(`${connections} connections`, created, concurrent.seconds, concurrentRate, concurrent.latencyMs),
          row('one at a time (naive)', sequentialCreated, sequentialSeconds, sequentialRate, sequentialLatency),
          ['password hash alone, one at a time', '', '', ceiling.toFixed(1), `${hashing.oneAtATimeMs.toFixed(1)} a hash`],
        ],
      },
      data: {
        users: USERS,
        connections,
        concurrent: { ...concurrent, created, usersPerSecond: concurrentRate },
        sequential: {
          users: SEQUENTIAL_USERS,
          created: sequentialCreated,
          seconds: sequentialSeconds,
          usersPerSecond: sequentialRate,
          latencyMs: sequentialLatency,
        },
        ratio: concurrentRate / sequentialRate,
        hashing,
        hashingCeilingUsersPerSecond: ceiling,
        apiCores: apiCpuSeconds / concurrent.seconds,
        machineBusyCores,
      },
    };
  } finally {
    await deleteBenchUsers(fixtures.sql, officeId);
  }
}

async function hashingFloor(): Promise<HashingFloor> {
  await hashPassword('warm-up password');
  let began = performance.now();
  for (let index = 0; index < HASHES; index++) await hashPassword(`password ${index}`);
  const oneAtATimeMs = (performance.now() - began) / HASHES;
  began = performance.now();
  for (let index = 0; index < HASHES; index += 4) await Promise.all([0, 1, 2, 3].map((offset) => hash(`password ${index + offset}`)));
  const fourAtOnceMs = (performance.now() - began) / HASHES;
  return { oneAtATimeMs, fourAtOnceMs };
}

/** Each user the run made has its primary address's row and must choose a password at first sign-in, as the contract says. */
async function checkCreated(fixtures: BenchFixtures, officeId: number, run: string): Promise<string> {
  const { rows } = await fixtures.sql.query<{ users: string; with_address: string; must_change: string }>(
    `SELECT count(*) AS users,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM addresses a WHERE a.address = u.email AND a.user_id = u.id AND a.kind = 'primary')) AS with_address,
            count(*) FILTER (WHERE u.password_change_required) AS must_change
       FROM users u WHERE u.office_id = $1 AND u.email LIKE $2`,
    [officeId, `u${run}-%`],
  );
  const { users, with_address: withAddress, must_change: mustChange } = rows[0];
  const verdict = users === withAddress && users === mustChange ? 'ok' : 'NOT AS THE CONTRACT SAYS';
  return `check (${verdict}): ${users} users made by this run, ${withAddress} with their primary address's row, ${mustChange} to change their password at first sign-in`;
}

function coreCount(): number {
  return availableParallelism();
}
