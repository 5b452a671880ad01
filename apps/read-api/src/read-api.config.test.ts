import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

test('the read API stops at start when a setting is bad, naming it', () => {
  const result = spawnSync(process.execPath, ['--require', '@swc-node/register', 'apps/read-api/src/main.ts'], {
    cwd: path.resolve(__dirname, '../../..'),
    env: {
      ...process.env,
      READ_API_PORT: 'eighty',
      DATABASE_POOL_SIZE: '0',
      DATABASE_HEAVY_STATEMENT_TIMEOUT_MS: '10',
      HEAVY_REQUESTS_PER_USER: '0',
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /read API cannot start/);
  assert.match(result.stderr, /READ_API_PORT: .*\(got "eighty"\)/);
  assert.match(result.stderr, /DATABASE_POOL_SIZE: .*\(got "0"\)/);
  assert.match(result.stderr, /DATABASE_HEAVY_STATEMENT_TIMEOUT_MS: .*\(got "10"\)/);
  assert.match(result.stderr, /HEAVY_REQUESTS_PER_USER: .*\(got "0"\)/);
});
