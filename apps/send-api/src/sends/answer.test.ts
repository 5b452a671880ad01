import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser, type AddressObject } from 'mailparser';
import IORedis from 'ioredis';
import MailComposer from 'nodemailer/lib/mail-composer';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  startDeliveryWorkerProcess,
  startIngestWorkerProcess,
  storedSentCopy,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((address) => address.address ?? ''));
}

describe('reply, reply all and forward', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: AppProcess;
  let copyWorker: AppProcess;
  let user: TestUser;
  let stranger: TestUser;
  let client: SendClient;
  const pdf = randomBytes(50_000);
  const png = randomBytes(3_000);

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 5, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix });
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
    copyWorker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_BATCH_WAIT_MS: '1' });
    user = await createTestUser(db, 'answerer');
    stranger = await createTestUser(db, 'answer-stranger');
    client = new SendClient(api.url, accessTokenFor(user));
  });

  after(async () => {
    await worker?.stop();
    await copyWorker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  /** A mail from outside to the user, a colleague and a Cc, in a conversation already two deep. */
  async function original(options: { replyTo?: string; attachments?: boolean } = {}) {
    const tag = randomUUID().slice(0, 8);
    const from = `ann.${tag}@outside.test`;
    const eml = await new MailComposer({
      from: `Ann <${from}>`,
      to: [user.email, `carl.${tag}@outside.test`],
      cc: `dora.${tag}@outside.test`,
      replyTo: options.replyTo,
      subject: `Budget ${tag}`,
      messageId: `<budget-${tag}@outside.test>`,
      inReplyTo: `<first-${tag}@outside.test>`,
      references: [`<first-${tag}@outside.test>`],
      html: `<p>See the chart <img src="cid:chart-${tag}"></p>`,
      attachments: options.attachments
        ? [
            { filename: 'budget.pdf', contentType: 'application/pdf', content: pdf },
            { filename: 'chart.png', contentType: 'image/png', content: png, cid: `chart-${tag}` },
          ]
        : [],
    })
      .compile()
      .build();
    const stored = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    return { ...stored, tag, from };
  }

  async function delivered(sendId: number) {
    const sent = await client.until(sendId, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const copy = await storedSentCopy(db, sent.sentMailId);
    const message = mock.messages().find((one) => one.raw.includes(copy.messageId));
    assert.ok(message, 'the message reached the provider');
    return { copy, message, parsed: await simpleParser(message.raw) };
  }

  const flagsOf = async (mailId: number) => db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) }, select: { answered: true, forwarded: true } });

  test('a reply goes to the sender with In-Reply-To, References and Re:, joins the conversation, and marks the original answered', async () => {
    const mail = await original();
    const answer = await client.send({ original: mail.id, mode: 'reply', text: 'Looks good.' });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const { copy, message, parsed } = await delivered(answer.body.id);
    assert.deepEqual(message.envelope.to, [mail.from]);
    assert.deepEqual(addresses(parsed.to), [mail.from]);
    assert.equal(parsed.subject, `Re: Budget ${mail.tag}`);
    assert.equal(parsed.inReplyTo, `<budget-${mail.tag}@outside.test>`);
    assert.deepEqual([parsed.references].flat(), [`<first-${mail.tag}@outside.test>`, `<budget-${mail.tag}@outside.test>`]);
    assert.equal(copy.threadId, BigInt(mail.threadId), "the Sent copy is in the original's conversation");
    assert.deepEqual(await flagsOf(mail.id), { answered: true, forwarded: false });
    // The user's open clients are told, as the read API tells them of other changes.
    const redis = new IORedis(loadConfig(redisConfig).REDIS_URL);
    try {
      const history = await redis.xrange(`${queuePrefix}:events:user:${user.id}`, '-', '+');
      const events = history.map(([, fields]) => JSON.parse(fields[fields.indexOf('event') + 1]) as Record<string, unknown>);
      assert.ok(
        events.some(
          (event) => event.type === 'mail.updated' && JSON.stringify(event.mailIds) === `[${mail.id}]` && JSON.stringify(event.changes) === '{"answered":true}',
        ),
        JSON.stringify(events),
      );
    } finally {
      redis.disconnect();
    }
  });

  test('a reply honours Reply-To; reply all adds To and Cc less the user; given recipients and subject win', async () => {
    const listed = await original({ replyTo: 'list@outside.test' });
    const toList = await delivered((await client.send({ original: listed.id, text: 'to the list' })).body.id);
    assert.deepEqual(addresses(toList.parsed.to), ['list@outside.test']);

    const mail = await original();
    const all = await delivered((await client.send({ original: mail.id, mode: 'replyAll', text: 'all' })).body.id);
    assert.deepEqual(addresses(all.parsed.to), [mail.from, `carl.${mail.tag}@outside.test`]);
    assert.deepEqual(addresses(all.parsed.cc), [`dora.${mail.tag}@outside.test`]);
    assert.ok(!all.message.envelope.to.includes(user.email), 'the user does not write to themselves');

    const chosen = await delivered(
      (await client.send({ original: mail.id, mode: 'reply', to: ['only@outside.test'], subject: 'Re: my words', text: 'x' })).body.id,
    );
    assert.deepEqual(chosen.message.envelope.to, ['only@outside.test']);
    assert.equal(chosen.parsed.subject, 'Re: my words');
  });

  test("a forward carries the original's attachment and inline image by reference, byte for byte, and marks it forwarded", async () => {
    const mail = await original({ attachments: true });
    const answer = await client.send({
      original: mail.id,
      mode: 'forward',
      to: ['eve@outside.test'],
      html: '<p>FYI</p><img src="cid:chart-' + mail.tag + '">',
    });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const { parsed } = await delivered(answer.body.id);
    assert.equal(parsed.subject, `Fwd: Budget ${mail.tag}`);
    assert.equal(parsed.inReplyTo, undefined, 'a forward answers nobody');
    assert.ok([parsed.references].flat().includes(`<budget-${mail.tag}@outside.test>`));
    const file = parsed.attachments.find((one) => one.filename === 'budget.pdf');
    const image = parsed.attachments.find((one) => one.filename === 'chart.png');
    assert.ok(file?.content.equals(pdf), 'the PDF arrives byte for byte');
    assert.ok(image?.content.equals(png), 'the inline image arrives byte for byte');
    assert.equal(image?.contentId, `<chart-${mail.tag}>`);
    assert.equal(image?.contentDisposition, 'inline');
    assert.deepEqual(await flagsOf(mail.id), { answered: false, forwarded: true });
    const send = await db.prisma.outboundSend.findUniqueOrThrow({ where: { id: BigInt(answer.body.id) } });
    const forwarded = (send.request as { attachments: Array<{ storageKey: string }> }).attachments;
    assert.deepEqual(
      forwarded.map((one) => one.storageKey),
      [mail.storageKey, mail.storageKey],
      'both parts are read from the original, not uploaded again',
    );
  });

  test("someone else's mail or a missing one is a 404 on original; a forward needs recipients; mode needs original", async () => {
    const theirs = await storeMail(db, blobs, {
      userId: stranger.id,
      mailboxId: stranger.mailboxes.inbox,
      eml: Buffer.from('From: x@outside.test\r\nSubject: theirs\r\n\r\nhi\r\n'),
    });
    for (const mailId of [theirs.id, 999_999_999]) {
      const answer = await client.send({ original: mailId, text: 'x' });
      assert.equal(answer.status, 404);
      assert.match(JSON.stringify(answer.body), new RegExp(`original: mail ${mailId} does not exist`));
    }
    const mail = await original();
    assert.equal((await client.send({ original: mail.id, mode: 'forward', text: 'x' })).status, 400);
    const modeAlone = await client.send({ to: ['a@outside.test'], mode: 'reply', text: 'x' });
    assert.equal(modeAlone.status, 400);
    assert.match(JSON.stringify(modeAlone.body), /body\.original/);
    assert.equal((await client.send({ original: 'abc', text: 'x' })).status, 400);
  });
});
