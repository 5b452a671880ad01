import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startMockSmtp, type MockSmtp } from './mock-smtp';
import { failureOf, sendTestMail } from './testing/smtp-client';

let mock: MockSmtp;

before(async () => {
  mock = await startMockSmtp({ port: 0, latencyMs: 0, ratePerSecond: 2, burst: 2 });
});
after(() => mock.close());

test('an account sending more than its burst at once gets 451 for the rest; others are not affected', async () => {
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => sendTestMail({ port: mock.port, from: 'busy@letterbox.test' })));
  const refused = results.filter((result) => result.status === 'rejected').map((result) => result.reason as { responseCode?: number; response?: string });
  assert.equal(results.length - refused.length, 2);
  assert.deepEqual(
    refused.map((failure) => failure.responseCode),
    [451, 451, 451],
  );
  assert.match(refused[0].response ?? '', /^451 4\.7\.1 Rate limit exceeded for busy@letterbox\.test, try again later$/);

  await sendTestMail({ port: mock.port, from: 'quiet@letterbox.test' });
  const counts = mock.counts();
  assert.deepEqual([counts['busy@letterbox.test'].accepted, counts['busy@letterbox.test'].rateLimited], [2, 3]);
  assert.equal(counts['quiet@letterbox.test'].accepted, 1);
});

test('the limit applies to the AUTH user, across sender addresses', async () => {
  mock.reset();
  mock.configure({ burst: 1, ratePerSecond: 0 });
  await sendTestMail({ port: mock.port, user: 'office-9', from: 'one@letterbox.test' });
  const failure = await failureOf(sendTestMail({ port: mock.port, user: 'office-9', from: 'two@letterbox.test' }));
  assert.equal(failure.responseCode, 451);
  assert.match(failure.response ?? '', /for office-9,/);
});
