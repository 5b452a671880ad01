import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './load-config';
import { pemFileSetting } from './tls-settings';

const settings = { INGEST_SMTP_TLS_CERT: pemFileSetting('certificate'), INGEST_SMTP_TLS_KEY: pemFileSetting('private key') };
const dir = mkdtempSync(path.join(tmpdir(), 'tls-settings-'));
const file = (name: string, content: string) => {
  writeFileSync(path.join(dir, name), content);
  return path.join(dir, name);
};
const key = file('key.pem', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(settings, env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail('the settings were taken');
}

test('neither a certificate nor a key: no TLS, and no complaint', () => {
  const config = loadConfig(settings, { INGEST_SMTP_TLS_CERT: '' });
  assert.equal(config.INGEST_SMTP_TLS_CERT, undefined);
  assert.equal(config.INGEST_SMTP_TLS_KEY, undefined);
});

test('an unreadable file or one that is not PEM of its kind is named, with why', () => {
  const problems = refusal({ INGEST_SMTP_TLS_CERT: file('hello.pem', 'hello'), INGEST_SMTP_TLS_KEY: path.join(dir, 'missing.pem') });
  assert.match(problems, /INGEST_SMTP_TLS_CERT: not a PEM certificate/);
  assert.match(problems, /INGEST_SMTP_TLS_KEY: cannot read the file \(ENOENT\)/);
  assert.match(refusal({ INGEST_SMTP_TLS_CERT: key, INGEST_SMTP_TLS_KEY: key }), /INGEST_SMTP_TLS_CERT: not a PEM certificate/);
});

test('a key without its certificate names the certificate setting', () => {
  assert.match(refusal({ INGEST_SMTP_TLS_KEY: key }), /INGEST_SMTP_TLS_CERT: required with INGEST_SMTP_TLS_KEY \(not set\)/);
});
