import { describeOnTestS3 } from '@letterbox/testing';

describeOnTestS3('the ingest API with mail in S3', async () => {
  await import('./inbound-smtp.test');
  await import('./refused-message-files.test');
});
