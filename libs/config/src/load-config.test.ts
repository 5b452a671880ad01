import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authConfig, databaseConfig, portFrom } from './common-settings';
import { ConfigError, loadConfig } from './load-config';

const settings = { ...databaseConfig, ...authConfig, PORT: portFrom(3000) };

test('defaults fill what is not set', () => {
  const config = loadConfig(settings, {});
  assert.equal(config.PORT, 3000);
  assert.equal(config.DATABASE_POOL_SIZE, 10);
  assert.match(config.DATABASE_URL, /^postgresql:\/\//);
});

test('every bad value is named, with what was given', () => {
  assert.throws(
    () => loadConfig(settings, { PORT: 'eighty', DATABASE_URL: 'mysql://x', AUTH_TOKEN_SECRET: 'short' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /PORT: .*\(got "eighty"\)/);
      assert.match(error.message, /DATABASE_URL: must be a postgresql:\/\/ URL \(got "mysql:\/\/x"\)/);
      assert.match(error.message, /AUTH_TOKEN_SECRET: must be at least 32 characters/);
      return true;
    },
  );
});
