import { describeOnTestS3 } from '@letterbox/testing';

describeOnTestS3('the send API with mail in S3', async () => {
  await import('./send.test');
});
