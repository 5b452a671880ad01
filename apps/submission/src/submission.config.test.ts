import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '@letterbox/config';
import { loadSubmissionConfig } from './submission.config';

const refusedWith = (pattern: RegExp) => (error: unknown) => error instanceof ConfigError && pattern.test(error.message);

test('without a certificate the app does not start, naming it: passwords go over TLS only', () => {
  assert.throws(() => loadSubmissionConfig({ LETTERBOX_DEMO: 'true' }), refusedWith(/SUBMISSION_TLS_CERT: required/));
});

test('passwords in the clear are the demo’s alone', () => {
  assert.equal(loadSubmissionConfig({ LETTERBOX_DEMO: 'true', SUBMISSION_ALLOW_PLAINTEXT: 'true' }).SUBMISSION_ALLOW_PLAINTEXT, true);
  assert.throws(
    () => loadSubmissionConfig({ NODE_ENV: 'production', STORAGE_DIR: '/var/lib/letterbox/storage', SUBMISSION_ALLOW_PLAINTEXT: 'true' }),
    refusedWith(/SUBMISSION_ALLOW_PLAINTEXT: passwords in the clear are for the demo only/),
  );
});

test('the ports default to 1587 (STARTTLS) and 1465 (implicit TLS)', () => {
  const config = loadSubmissionConfig({ LETTERBOX_DEMO: 'true', SUBMISSION_ALLOW_PLAINTEXT: 'true' });
  assert.deepEqual([config.SUBMISSION_PORT, config.SUBMISSIONS_PORT], [1587, 1465]);
});
