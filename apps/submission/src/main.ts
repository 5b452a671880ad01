import { runWorkerProcess } from '@letterbox/queue';
import { loadSubmissionConfig } from './submission.config';
import { startSubmission } from './start-submission';

runWorkerProcess({
  name: 'submission',
  loadConfig: () => loadSubmissionConfig(),
  start: startSubmission,
  describe: (config) =>
    config.SUBMISSION_TLS_CERT
      ? `taking mail clients' messages on SMTP port ${config.SUBMISSION_PORT} (STARTTLS) and ${config.SUBMISSIONS_PORT} (TLS)`
      : `taking mail clients' messages on SMTP port ${config.SUBMISSION_PORT}, passwords in the clear (the demo's SUBMISSION_ALLOW_PLAINTEXT)`,
  inFlight: 'messages',
});
