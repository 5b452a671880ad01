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
  assert.equal(config.MOCK_DNS_PORT, 5354);
});

test('unset, the mock FCM answers after 50 ms and never fails on its own', () => {
  const config = loadMockProvidersConfig({});
  assert.deepEqual(
    [config.MOCK_FCM_LATENCY_MS, config.MOCK_FCM_UNAVAILABLE_RATE, config.MOCK_FCM_QUOTA_EXCEEDED_RATE, config.MOCK_FCM_INTERNAL_RATE],
    [50, 0, 0, 0],
  );
  const set = loadMockProvidersConfig({
    MOCK_FCM_LATENCY_MS: '5',
    MOCK_FCM_UNAVAILABLE_RATE: '0.1',
    MOCK_FCM_QUOTA_EXCEEDED_RATE: '0.2',
    MOCK_FCM_INTERNAL_RATE: '1',
  });
  assert.deepEqual([set.MOCK_FCM_LATENCY_MS, set.MOCK_FCM_UNAVAILABLE_RATE, set.MOCK_FCM_QUOTA_EXCEEDED_RATE, set.MOCK_FCM_INTERNAL_RATE], [5, 0.1, 0.2, 1]);
});

test('the mock providers stop at start when a setting is bad, naming it', () => {
  const result = spawnSync(process.execPath, ['--require', '@swc-node/register', 'apps/mock-providers/src/main.ts'], {
    cwd: path.resolve(__dirname, '../../..'),
    env: {
      ...process.env,
      MOCK_SMTP_PORT: 'eighty',
      MOCK_DNS_PORT: '70000',
      MOCK_SMTP_TEMP_FAIL_RATE: '2',
      MOCK_SMTP_BURST: '0.5',
      MOCK_FCM_LATENCY_MS: '-1',
      MOCK_FCM_INTERNAL_RATE: 'often',
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /mock providers cannot start/);
  assert.match(result.stderr, /MOCK_SMTP_PORT: .*\(got "eighty"\)/);
  assert.match(result.stderr, /MOCK_DNS_PORT: .*\(got "70000"\)/);
  assert.match(result.stderr, /MOCK_SMTP_TEMP_FAIL_RATE: .*\(got "2"\)/);
  assert.match(result.stderr, /MOCK_SMTP_BURST: .*\(got "0.5"\)/);
  assert.match(result.stderr, /MOCK_FCM_LATENCY_MS: .*\(got "-1"\)/);
  assert.match(result.stderr, /MOCK_FCM_INTERNAL_RATE: .*\(got "often"\)/);
});
