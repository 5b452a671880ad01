import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { startMockSmtp, type MockSmtp } from './mock-smtp';
import { failureOf, sendTestMail } from './test-helpers';

const noFailures = { tempFailRate: 0, permFailRate: 0, dropRate: 0, accepting: true };
let mock: MockSmtp;

before(async () => {
  mock = await startMockSmtp({ port: 0, latencyMs: 0 });
});
after(() => mock.close());
beforeEach(() => {
  mock.reset();
  mock.configure(noFailures);
});

test('tempFailRate 1 answers every mail 451, after the latency', async () => {
  mock.configure({ tempFailRate: 1, latencyMs: 100 });
  const started = performance.now();
  const failure = await failureOf(sendTestMail({ port: mock.port }));
  assert.ok(performance.now() - started >= 95, 'the error came after the latency like any reply');
  assert.equal(failure.responseCode, 451);
  assert.match(failure.response ?? '', /^451 4\.3\.0 Temporary failure$/);
  assert.equal(mock.counts()['sender@letterbox.test'].tempFailed, 1);
  assert.deepEqual(mock.messages(), []);
  mock.configure({ latencyMs: 0 });
});

test('permFailRate 1 answers every mail 550', async () => {
  mock.configure({ permFailRate: 1 });
  const failure = await failureOf(sendTestMail({ port: mock.port }));
  assert.equal(failure.responseCode, 550);
  assert.match(failure.response ?? '', /^550 5\.7\.1 Message rejected permanently$/);
  assert.equal(mock.counts()['sender@letterbox.test'].permFailed, 1);
});

test('dropRate 1 cuts the connection at the end of DATA, with no reply', async () => {
  mock.configure({ dropRate: 1 });
  const failure = await failureOf(sendTestMail({ port: mock.port }));
  assert.equal(failure.responseCode, undefined);
  assert.match(failure.code ?? '', /^(ECONNECTION|ESOCKET)$/);
  assert.equal(mock.counts()['sender@letterbox.test'].dropped, 1);
  assert.deepEqual(mock.messages(), []);
});

test('while not accepting, sessions are refused at once with 421, and come back when accepting again', async () => {
  mock.configure({ accepting: false, latencyMs: 60_000 });
  const failure = await failureOf(sendTestMail({ port: mock.port }));
  assert.equal(failure.responseCode, 421);
  mock.configure({ accepting: true, latencyMs: 0 });
  await sendTestMail({ port: mock.port });
  assert.equal(mock.messages().length, 1);
});

test('a failed mail costs no rate limit token, so its retry can go through', async () => {
  mock.configure({ burst: 1, ratePerSecond: 0, tempFailRate: 1 });
  await failureOf(sendTestMail({ port: mock.port }));
  mock.configure({ tempFailRate: 0 });
  await sendTestMail({ port: mock.port });
  assert.deepEqual(mock.counts()['sender@letterbox.test'], { accepted: 1, rateLimited: 0, tempFailed: 1, permFailed: 0, dropped: 0 });
  mock.configure({ burst: 5, ratePerSecond: 5 });
});
