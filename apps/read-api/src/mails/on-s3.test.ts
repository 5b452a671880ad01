import { describeOnTestS3 } from '@letterbox/testing';

describeOnTestS3('the read API with mail in S3', async () => {
  await import('./mail-read.test');
  await import('./large-mail-memory.test');
});
