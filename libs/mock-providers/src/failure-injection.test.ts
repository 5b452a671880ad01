import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { createTransport } from 'nodemailer';
import { startMockSmtp, type MockSmtp } from './mock-smtp';
import { DEFAULT_SMTP_BEHAVIOUR } from './smtp-behaviour';
import { failureOf, sendTestMail } from './testing/smtp-client';

let mock: MockSmtp;

before(async () => {
  mock = await startMockSmtp({ port: 0, latencyMs: 0 });
});
after(() => mock.close());
beforeEach(() => {
  mock.reset();
  mock.configure({ ...DEFAULT_SMTP_BEHAVIOUR, latencyMs: 0 });
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

test('a connection opened before the outage is refused at its next mail', async () => {
  const pool = createTransport({ pool: true, maxConnections: 1, host: '127.0.0.1', port: mock.port, secure: false, ignoreTLS: true });
  const mail = { from: 'sender@letterbox.test', to: 'rcpt@example.test', text: 'pooled' };
  try {
    await pool.sendMail(mail);
    mock.configure({ accepting: false });
    assert.equal((await failureOf(pool.sendMail(mail))).responseCode, 421);
  } finally {
    pool.close();
  }
});

test('a failed mail costs no rate limit token, so its retry can go through', async () => {
  mock.configure({ burst: 1, ratePerSecond: 0, tempFailRate: 1 });
  await failureOf(sendTestMail({ port: mock.port }));
  mock.configure({ tempFailRate: 0 });
  await sendTestMail({ port: mock.port });
  assert.deepEqual(mock.counts()['sender@letterbox.test'], { accepted: 1, rateLimited: 0, tempFailed: 1, permFailed: 0, dropped: 0 });
});
