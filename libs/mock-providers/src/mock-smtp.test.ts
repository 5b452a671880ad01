import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startMockSmtp, type MockSmtp } from './mock-smtp';
import { DEFAULT_SMTP_BEHAVIOUR } from './smtp-behaviour';
import { failureOf, sendTestMail } from './testing/smtp-client';

describe('mock SMTP provider', () => {
  let mock: MockSmtp;

  before(async () => {
    mock = await startMockSmtp({ port: 0, latencyMs: 0 });
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.reset();
    mock.configure({ ...DEFAULT_SMTP_BEHAVIOUR, latencyMs: 0 });
  });

  test('accepts a mail only after the latency, keeping its envelope and raw EML', async () => {
    mock.configure({ latencyMs: 100 });
    const started = performance.now();
    const info = await sendTestMail({
      port: mock.port,
      from: 'Alice@letterbox.test',
      to: ['bob@example.test', 'carol@example.test'],
      subject: 'Quarterly report',
    });
    // Timers count whole milliseconds, so one may fire a hair before the exact mark.
    assert.ok(performance.now() - started >= 95, 'the 250 came after the latency');
    const [mail] = mock.messages();
    assert.match(info.response, new RegExp(`^250 2\\.0\\.0 Ok: queued as ${mail.id}$`));
    assert.deepEqual(mail.envelope, { from: 'Alice@letterbox.test', to: ['bob@example.test', 'carol@example.test'] });
    assert.equal(mail.account, 'alice@letterbox.test', 'without AUTH the account is the From address, lower-cased');
    assert.match(mail.raw.toString(), /^Subject: Quarterly report\r$/m);
    assert.match(mail.raw.toString(), /Hello from the tests\./);
    assert.ok(mail.acceptedAt <= Date.now());
    assert.deepEqual(mock.counts(), { 'alice@letterbox.test': { accepted: 1, rateLimited: 0, tempFailed: 0, permFailed: 0, dropped: 0 } });
  });

  test('records whether a mail came over STARTTLS, with the protocol and cipher negotiated', async () => {
    await sendTestMail({ port: mock.port, to: 'over-tls@example.test', starttls: true });
    await sendTestMail({ port: mock.port, to: 'in-the-clear@example.test' });
    const [overTls] = mock.messages({ to: 'over-tls@example.test' });
    assert.match(overTls.tls?.protocol ?? '', /^TLSv1\.[23]$/);
    assert.ok(overTls.tls?.cipher);
    assert.equal(mock.messages({ to: 'in-the-clear@example.test' })[0].tls, null);
  });

  test('with AUTH the account is the user name, whatever the sender address', async () => {
    await sendTestMail({ port: mock.port, user: 'office-7', from: 'someone@letterbox.test' });
    assert.equal(mock.messages()[0].account, 'office-7');
    assert.deepEqual(Object.keys(mock.counts()), ['office-7']);
  });

  test('without AUTH, a mail from a bounce address (VERP) counts against its From address, not the envelope', async () => {
    await sendTestMail({ port: mock.port, from: 'Alice Kim <Alice@letterbox.test>', envelopeFrom: 'bounces+1a.0123456789ab@letterbox.test' });
    assert.equal(mock.messages()[0].envelope.from, 'bounces+1a.0123456789ab@letterbox.test');
    assert.equal(mock.messages()[0].account, 'alice@letterbox.test');
    assert.deepEqual(Object.keys(mock.counts()), ['alice@letterbox.test']);
  });

  test('messages can be filtered by recipient and account, in any case', async () => {
    await sendTestMail({ port: mock.port, from: 'a@letterbox.test', to: 'x@example.test' });
    await sendTestMail({ port: mock.port, from: 'b@letterbox.test', to: 'y@example.test' });
    assert.deepEqual(
      mock.messages({ to: 'Y@example.test' }).map((mail) => mail.account),
      ['b@letterbox.test'],
    );
    assert.deepEqual(
      mock.messages({ account: 'A@letterbox.test' }).map((mail) => mail.envelope.to),
      [['x@example.test']],
    );
    assert.equal(mock.messages().length, 2);
  });

  test('keeps only the latest keepMessages mails, but counts them all', async () => {
    mock.configure({ keepMessages: 2 });
    for (const subject of ['one', 'two', 'three']) await sendTestMail({ port: mock.port, subject });
    assert.deepEqual(
      mock.messages().map((mail) => /^Subject: (\w+)/m.exec(mail.raw.toString())?.[1]),
      ['two', 'three'],
    );
    assert.equal(mock.counts()['sender@letterbox.test'].accepted, 3);
  });

  test('a mail over maxMessageBytes is refused with 552 and not kept', async () => {
    mock.configure({ maxMessageBytes: 2000 });
    const failure = await failureOf(sendTestMail({ port: mock.port, text: 'x'.repeat(5000) }));
    assert.equal(failure.responseCode, 552);
    assert.deepEqual(mock.messages(), []);
  });

  test('reset forgets mails and counts but keeps the settings', async () => {
    mock.configure({ latencyMs: 1 });
    await sendTestMail({ port: mock.port });
    mock.reset();
    assert.deepEqual(mock.messages(), []);
    assert.deepEqual(mock.counts(), {});
    assert.equal(mock.config().latencyMs, 1);
  });

  test('a bad setting is refused and changes nothing', () => {
    assert.throws(() => mock.configure({ tempFailRate: 1.5 }), /tempFailRate/);
    assert.throws(() => mock.configure({ latency: 5 } as never), /latency/);
    assert.equal(mock.config().tempFailRate, 0);
  });
});

test('close() is prompt with a client connected and a reply still waiting', { timeout: 10_000 }, async () => {
  const mock = await startMockSmtp({ port: 0, latencyMs: 60_000 });
  const idle = connect(mock.port, '127.0.0.1');
  await once(idle, 'data');
  const waiting = failureOf(sendTestMail({ port: mock.port }));
  await mock.close();
  const failure = await waiting;
  assert.equal(failure.responseCode, undefined, 'the waiting client got no reply, only a closed connection');
  if (!idle.closed) await once(idle, 'close');
});
