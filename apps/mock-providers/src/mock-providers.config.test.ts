import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { loadMockProvidersConfig } from './mock-providers.config';

test('unset, the provider behaves like the real one: 4 s to accept, 5 mails a second per account', () => {
  const config = loadMockProvidersConfig({});
  assert.deepEqual(
    [config.MOCK_SMTP_PORT, config.MOCK_PROVIDERS_HTTP_PORT, config.MOCK_SMTP_LATENCY_MS, config.MOCK_SMTP_RATE_PER_SECOND, config.MOCK_SMTP_BURST],
    [1025, 3005, 4000, 5, 5],
  );
  assert.equal(config.MOCK_SMTP_MAX_MESSAGE_BYTES, 30 * 1024 * 1024);
});

test('the mock providers stop at start when a setting is bad, naming it', () => {
  const result = spawnSync(process.execPath, ['--require', '@swc-node/register', 'apps/mock-providers/src/main.ts'], {
    cwd: path.resolve(__dirname, '../../..'),
    env: { ...process.env, MOCK_SMTP_PORT: 'eighty', MOCK_SMTP_TEMP_FAIL_RATE: '2', MOCK_SMTP_BURST: '0.5' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /mock providers cannot start/);
  assert.match(result.stderr, /MOCK_SMTP_PORT: .*\(got "eighty"\)/);
  assert.match(result.stderr, /MOCK_SMTP_TEMP_FAIL_RATE: .*\(got "2"\)/);
  assert.match(result.stderr, /MOCK_SMTP_BURST: .*\(got "0.5"\)/);
});
