import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..');
/** A database every PostgreSQL has and no test setup marks. */
const UNMARKED = 'postgresql://letterbox:letterbox@127.0.0.1:5432/postgres';

/** A test target as Nx runs it (`nx run config:test`), with the environment its caller had. */
function runConfigTests(env: NodeJS.ProcessEnv) {
  // Without NODE_TEST_CONTEXT, the runner inside reports as on a terminal, not to this one.
  const { NODE_TEST_CONTEXT: _inner, ...outer } = process.env;
  const run = spawnSync('bash', ['tools/run-tests.sh', 'libs/config'], { cwd: ROOT, env: { ...outer, ...env }, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('a test target run with the live settings exported still uses the test database and storage', () => {
  const run = runConfigTests({ DATABASE_URL: UNMARKED, STORAGE_DIR: '/nonexistent/live-storage' });
  // Had the target taken DATABASE_URL, the unmarked database would have been refused.
  assert.equal(run.status, 0, run.output);
  assert.match(run.output, /ℹ pass \d+/);
});

test('a test target refuses a database the test setup did not mark, naming it and what to run', () => {
  const run = runConfigTests({ TEST_DATABASE_URL: UNMARKED });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /\/postgres is not a test database \(no letterbox_test_database table\)/);
  assert.match(run.output, /bash scripts\/setup-tests\.sh/);
  assert.doesNotMatch(run.output, /ℹ pass/, 'no test ran');
});
