import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort, poll, REPO_ROOT, testQueuePrefix, writeTestCertificate } from '@letterbox/testing';

const SCRIPT = path.join(REPO_ROOT, 'scripts/start-prod.sh');

/** Only what a shell of a fresh machine has, and the tests' own database and Redis: nothing of the demo's. */
const bareEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL });

/** The script run to its end: its exit code and what it wrote. */
function runToEnd(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [SCRIPT], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test('start:prod refuses to start without the settings production needs, naming each one', async () => {
  const { code, output } = await runToEnd(bareEnv());
  assert.equal(code, 1);
  for (const setting of [
    'AUTH_TOKEN_SECRET',
    'ADMIN_PASSWORD',
    'INGEST_TOKEN',
    'DKIM_KEY_ENCRYPTION_KEY',
    'BOUNCE_TOKEN_SECRET',
    'SRS_SECRET',
    'RSPAMD_PASSWORD',
    'SMTP_HOST/SMTP_PORT',
    'INGEST_SMTP_HOSTNAME',
    'READ_API_PUBLIC_URL',
    'STORAGE_DIR',
  ])
    assert.match(output, new RegExp(`^  ${setting}: `, 'm'), setting);
  assert.doesNotMatch(output, /is starting/, 'no app was started');
  assert.match((await runToEnd({ ...bareEnv(), LETTERBOX_DEMO: 'true' })).output, /LETTERBOX_DEMO=true is the demo: run npm start/);
});

describe('start:prod with production settings', () => {
  const dist = path.join(REPO_ROOT, 'tmp', `start-prod-dist-${process.pid}`);
  const storage = mkdtempSync(path.join(tmpdir(), 'letterbox-prod-storage-'));
  const database = new Client({ connectionString: process.env.DATABASE_URL });
  const usersNow = async () => Number((await database.query<{ count: string }>('SELECT count(*) FROM users')).rows[0].count);

  before(async () => {
    await promisify(execFile)(process.execPath, ['--require', '@swc-node/register', 'scripts/build.ts', dist], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    await database.connect();
  });

  after(async () => {
    await database.end();
    rmSync(dist, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  test('runs every app, seeds nothing and starts no mock; push is off without Firebase, said once', async () => {
    const [webmailPort, readApiPort, sendApiPort, ingestHttpPort, ingestSmtpPort, unusedSmtpPort, imapPort, imapsPort] = await Promise.all(
      Array.from({ length: 8 }, freePort),
    );
    const imapCertificate = await writeTestCertificate();
    const usersBefore = await usersNow();
    const child = spawn('bash', [SCRIPT], {
      cwd: REPO_ROOT,
      env: {
        ...bareEnv(),
        LETTERBOX_DIST: dist,
        LOG_LEVEL: 'info',
        QUEUE_PREFIX: testQueuePrefix(),
        STORAGE_DIR: storage,
        AUTH_TOKEN_SECRET: 'a'.repeat(40),
        ADMIN_PASSWORD: 'an-admin-password',
        INGEST_TOKEN: 'a-gateway-token-of-ours',
        DKIM_KEY_ENCRYPTION_KEY: 'cd'.repeat(32),
        BOUNCE_TOKEN_SECRET: 'b'.repeat(40),
        SRS_SECRET: 's'.repeat(40),
        RSPAMD_PASSWORD: 'an-rspamd-password',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(unusedSmtpPort),
        INGEST_SMTP_HOSTNAME: 'mx.example.com',
        READ_API_PUBLIC_URL: 'https://mail.example.com',
        OPS_PORT: '0',
        WEBMAIL_PORT: String(webmailPort),
        WEBMAIL_HOST: '127.0.0.1',
        READ_API_PORT: String(readApiPort),
        READ_API_HOST: '127.0.0.1',
        READ_API_URL: `http://127.0.0.1:${readApiPort}`,
        SEND_API_PORT: String(sendApiPort),
        SEND_API_HOST: '127.0.0.1',
        SEND_API_URL: `http://127.0.0.1:${sendApiPort}`,
        INGEST_HTTP_PORT: String(ingestHttpPort),
        INGEST_SMTP_PORT: String(ingestSmtpPort),
        INGEST_HOST: '127.0.0.1',
        IMAP_HOST: '127.0.0.1',
        IMAP_PORT: String(imapPort),
        IMAPS_PORT: String(imapsPort),
        IMAP_TLS_CERT: imapCertificate.certFile,
        IMAP_TLS_KEY: imapCertificate.keyFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const ready = await poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`start:prod exited with ${child.exitCode}:\n${output}`);
          const workers = ['delivery worker', 'ingest worker', 'notify worker', 'imap'].every((name) => output.includes(`"msg":"${name} `));
          const webmail = await fetch(`http://127.0.0.1:${webmailPort}/health/ready`).then(
            (answer) => answer.ok,
            () => false,
          );
          return workers && webmail && output.includes('"msg":"ingest: ');
        },
        // Eight apps starting at once on a busy 2-core machine take a while.
        { timeoutMs: 180_000, intervalMs: 200 },
      );
      assert.ok(ready, `not every app became ready:\n${output}`);
      assert.equal((output.match(/push is off/g) ?? []).length, 1, output);
      assert.doesNotMatch(output, /mock providers/);
      assert.equal(await usersNow(), usersBefore, 'no user was made');
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    }
    assert.doesNotMatch(output, /cannot start/);
  });
});
