import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '@letterbox/config';
import { loadNotifyWorkerConfig } from './notify-worker.config';

const scratch = mkdtempSync(path.join(tmpdir(), 'notify-config-'));

function keyFile(name: string, content: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadNotifyWorkerConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  throw new Error('the configuration was expected to be refused');
}

test('with a mock FCM no credentials are needed; the project id defaults to letterbox-local', () => {
  const config = loadNotifyWorkerConfig({ FCM_MOCK_URL: 'http://127.0.0.1:3005' });
  assert.deepEqual(config.fcm, { kind: 'mock', url: new URL('http://127.0.0.1:3005'), projectId: 'letterbox-local', maxConnections: 500 });
  assert.equal(config.NOTIFY_CONCURRENCY, 100);
  assert.equal(config.QUEUE_PREFIX, 'bull');
});

test('with Google’s FCM the service-account key file is read for its fields at start', () => {
  const file = keyFile('key.json', {
    type: 'service_account',
    project_id: 'letterbox-prod',
    client_email: 'push@letterbox-prod.iam.gserviceaccount.com',
    private_key: 'KEY',
  });
  const config = loadNotifyWorkerConfig({ GOOGLE_APPLICATION_CREDENTIALS: file, FCM_MAX_CONNECTIONS: '200' });
  assert.deepEqual(config.fcm, { kind: 'google', serviceAccountFile: file, projectId: undefined, maxConnections: 200 });
});

test('with neither Google’s credentials nor a mock FCM, push is off and the worker still starts', () => {
  assert.equal(loadNotifyWorkerConfig({}).fcm, undefined);
});

test('every bad value is named', () => {
  const notAKey = keyFile('not-a-key.json', { type: 'authorized_user' });
  const message = configError({
    GOOGLE_APPLICATION_CREDENTIALS: notAKey,
    FCM_MOCK_URL: 'ftp://127.0.0.1',
    FCM_PROJECT_ID: 'Bad_Project',
    FCM_MAX_CONNECTIONS: '0',
    NOTIFY_CONCURRENCY: 'lots',
  });
  assert.match(message, /GOOGLE_APPLICATION_CREDENTIALS: must be a readable service-account JSON key file/);
  assert.match(message, /FCM_MOCK_URL: must be an http:\/\/ URL.*\(got "ftp:\/\/127.0.0.1"\)/);
  assert.match(message, /FCM_PROJECT_ID: must be a Google Cloud project id/);
  assert.match(message, /FCM_MAX_CONNECTIONS: .*\(got "0"\)/);
  assert.match(message, /NOTIFY_CONCURRENCY: .*\(got "lots"\)/);
  assert.match(configError({ GOOGLE_APPLICATION_CREDENTIALS: path.join(scratch, 'missing.json') }), /GOOGLE_APPLICATION_CREDENTIALS: must be a readable/);
  assert.match(
    configError({ GOOGLE_APPLICATION_CREDENTIALS: keyFile('broken.json', '{"project_id": ') }),
    /GOOGLE_APPLICATION_CREDENTIALS: must be a readable/,
  );
});
