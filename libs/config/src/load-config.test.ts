import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import {
  adminConfig,
  aes256KeyBytes,
  authConfig,
  bounceTokenConfig,
  srsConfig,
  databaseConfig,
  dkimKeyConfig,
  httpConfig,
  ingestTokenConfig,
  portFrom,
  redisConfig,
  spamCheckConfig,
  storageConfig,
} from './common-settings';
import { ConfigError, loadConfig } from './load-config';

const settings = { ...databaseConfig, ...authConfig, PORT: portFrom(3000) };

test('defaults fill what is not set', () => {
  const config = loadConfig(settings, { LETTERBOX_DEMO: 'true' });
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

test("rspamd's scanner is reached over plain HTTP: an https:// URL is named, not sent in the clear", () => {
  assert.throws(
    () => loadConfig(spamCheckConfig, { LETTERBOX_DEMO: 'true', RSPAMD_URL: 'https://rspamd.example:11333' }),
    /RSPAMD_URL: must be an http:\/\/ URL: rspamd's scanner speaks plain HTTP \(got "https:\/\/rspamd\.example:11333"\)/,
  );
});

const secrets = { ...authConfig, ...adminConfig, ...ingestTokenConfig, ...dkimKeyConfig, ...bounceTokenConfig, ...srsConfig };
const own = {
  AUTH_TOKEN_SECRET: 'x'.repeat(40),
  ADMIN_PASSWORD: 'a-password-of-mine',
  INGEST_TOKEN: 'a-gateway-token-of-mine',
  DKIM_KEY_ENCRYPTION_KEY: 'ab'.repeat(32),
  BOUNCE_TOKEN_SECRET: 'b'.repeat(40),
  SRS_SECRET: 's'.repeat(40),
};

test('outside the demo, a secret left at its public default stops the app, naming the setting to set', () => {
  for (const env of [{}, { NODE_ENV: 'production', LETTERBOX_DEMO: 'true' }, { AUTH_TOKEN_SECRET: 'letterbox-demo-secret-change-me-in-production' }]) {
    assert.throws(
      () => loadConfig(secrets, env),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of ['AUTH_TOKEN_SECRET', 'ADMIN_PASSWORD', 'INGEST_TOKEN', 'DKIM_KEY_ENCRYPTION_KEY', 'BOUNCE_TOKEN_SECRET', 'SRS_SECRET'])
          assert.match(error.message, new RegExp(`${name}: the public demo default`));
        return true;
      },
      JSON.stringify(env),
    );
  }
  assert.throws(() => loadConfig(secrets, { ...own, AUTH_TOKEN_SECRET: undefined }), /AUTH_TOKEN_SECRET: the public demo default, and this is not the demo/);
  assert.equal(loadConfig(secrets, own).ADMIN_PASSWORD, 'a-password-of-mine');
  assert.equal(loadConfig(secrets, { LETTERBOX_DEMO: 'true' }).ADMIN_PASSWORD, 'letterbox-admin');
});

test('the DKIM key encryption key is 32 bytes, in hex or base64; anything else is named', () => {
  assert.equal(aes256KeyBytes('ab'.repeat(32))?.length, 32);
  assert.equal(aes256KeyBytes(Buffer.alloc(32, 7).toString('base64'))?.length, 32);
  for (const value of ['ab'.repeat(31), Buffer.alloc(16).toString('base64'), 'not a key']) {
    assert.throws(() => loadConfig(dkimKeyConfig, { LETTERBOX_DEMO: 'true', DKIM_KEY_ENCRYPTION_KEY: value }), /DKIM_KEY_ENCRYPTION_KEY: must be 32 bytes/);
  }
});

test('CORS origins and trusted proxies are lists; anything else is named', () => {
  assert.deepEqual(loadConfig(httpConfig, {}).TRUSTED_PROXIES, ['loopback']);
  assert.deepEqual(loadConfig(httpConfig, { TRUSTED_PROXIES: '10.0.0.0/8, loopback' }).TRUSTED_PROXIES, ['10.0.0.0/8', 'loopback']);
  assert.throws(() => loadConfig(httpConfig, { TRUSTED_PROXIES: 'everyone' }), /TRUSTED_PROXIES: must be/);
  assert.deepEqual(loadConfig(httpConfig, {}).CORS_ORIGINS, ['http://127.0.0.1:8080', 'http://localhost:8080']);
  assert.deepEqual(loadConfig(httpConfig, { CORS_ORIGINS: 'https://mail.example.com, https://beta.example.com:8443' }).CORS_ORIGINS, [
    'https://mail.example.com',
    'https://beta.example.com:8443',
  ]);
  assert.throws(() => loadConfig(httpConfig, { CORS_ORIGINS: '*' }), /CORS_ORIGINS: must be origins/);
});

test('the S3 settings are needed only with STORAGE_BACKEND=s3, and each one missing or bad is named', () => {
  assert.equal(loadConfig(storageConfig, { LETTERBOX_DEMO: 'true' }).STORAGE_BACKEND, 'disk');
  assert.throws(
    () => loadConfig(storageConfig, { STORAGE_BACKEND: 's3', S3_ACCESS_KEY_ID: 'key' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /S3_BUCKET: required when STORAGE_BACKEND=s3/);
      assert.match(error.message, /S3_SECRET_ACCESS_KEY: required when STORAGE_BACKEND=s3/);
      assert.doesNotMatch(error.message, /S3_ACCESS_KEY_ID/);
      return true;
    },
  );
  assert.throws(
    () => loadConfig(storageConfig, { STORAGE_BACKEND: 's3', S3_BUCKET: 'My_Bucket', S3_FORCE_PATH_STYLE: 'yes' }),
    /S3_BUCKET: must be a bucket name[\s\S]*S3_FORCE_PATH_STYLE: must be true or false/,
  );
  const s3 = loadConfig(storageConfig, {
    STORAGE_BACKEND: 's3',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_BUCKET: 'mail',
    S3_ACCESS_KEY_ID: 'k',
    S3_SECRET_ACCESS_KEY: 's',
    S3_FORCE_PATH_STYLE: 'true',
  });
  assert.equal(s3.S3_FORCE_PATH_STYLE, true);
  assert.equal(s3.S3_REGION, 'us-east-1');
});

test('outside the demo, settings pointing at the demo are refused, each named with what to set', () => {
  const pointing = {
    ...storageConfig,
    SMTP_HOST: z.string().default('127.0.0.1'),
    SMTP_PORT: portFrom(1025),
    INGEST_SMTP_HOSTNAME: z.string().default('mx.letterbox.test'),
    READ_API_PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
  };
  for (const env of [{}, { NODE_ENV: 'production', LETTERBOX_DEMO: 'true' }]) {
    assert.throws(
      () => loadConfig(pointing, env),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /SMTP_HOST\/SMTP_PORT: 127\.0\.0\.1:1025 is the demo's mock SMTP relay/);
        assert.match(error.message, /INGEST_SMTP_HOSTNAME: mx\.letterbox\.test is the demo's MX name/);
        assert.match(error.message, /READ_API_PUBLIC_URL: http:\/\/127\.0\.0\.1:3000 is this machine's loopback/);
        assert.match(error.message, /STORAGE_DIR: .*var\/storage is inside the repository/);
        return true;
      },
      JSON.stringify(env),
    );
  }
  const production = {
    SMTP_HOST: 'smtp.example.net',
    SMTP_PORT: '587',
    INGEST_SMTP_HOSTNAME: 'mx.example.com',
    READ_API_PUBLIC_URL: 'https://mail.example.com',
    STORAGE_DIR: '/var/lib/letterbox/storage',
  };
  assert.equal(loadConfig(pointing, production).STORAGE_DIR, '/var/lib/letterbox/storage');
  assert.equal(loadConfig(pointing, { ...production, SMTP_HOST: '127.0.0.1', SMTP_PORT: '25' }).SMTP_PORT, 25, 'a local MTA is no mock');
  assert.equal(
    loadConfig(pointing, { ...production, STORAGE_DIR: undefined, STORAGE_BACKEND: 's3', S3_BUCKET: 'mail', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' })
      .STORAGE_BACKEND,
    's3',
  );
  assert.equal(loadConfig(pointing, { LETTERBOX_DEMO: 'true' }).SMTP_PORT, 1025, 'the demo runs on them');
});

test('REDIS_CLUSTER_NODES is read as host:port pairs, and a bad one is named', () => {
  assert.equal(loadConfig(redisConfig, {}).REDIS_CLUSTER_NODES, undefined);
  assert.deepEqual(loadConfig(redisConfig, { REDIS_CLUSTER_NODES: '10.0.0.1:7001, redis-b.internal:7002' }).REDIS_CLUSTER_NODES, [
    { host: '10.0.0.1', port: 7001 },
    { host: 'redis-b.internal', port: 7002 },
  ]);
  for (const nodes of ['10.0.0.1', '10.0.0.1:70000', '10.0.0.1:7001,', 'redis://10.0.0.1:7001']) {
    assert.throws(() => loadConfig(redisConfig, { REDIS_CLUSTER_NODES: nodes }), /REDIS_CLUSTER_NODES: must be host:port pairs, comma-separated/, nodes);
  }
});
