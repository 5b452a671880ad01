import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { SendRecords } from '../submit/send-records';
import type { SendRequest } from '../submit/send-request';
import { SentCopies, type StoredSentCopy } from './sent-copies';
import { senderOf, sendRequest } from '../testing/recorded-sends';

describe('SentCopies: the sender’s own copy of a send, stored after the send was answered', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  let db: Database;
  let records: SendRecords;
  let announced: StoredSentCopy[][];
  let copies: SentCopies;

  before(() => {
    db = testDatabase();
    records = new SendRecords(db);
    copies = new SentCopies(db, blobs, queuePrefix, async (stored) => void announced.push(stored));
  });

  after(async () => {
    await db.close();
  });

  async function recorded(user: TestUser, request: SendRequest) {
    const { send } = await records.record(senderOf(user), request, { queuePrefix });
    return send;
  }

  const copyOf = (mailId: number | null) => db.prisma.mail.findUnique({ where: { id: BigInt(mailId ?? 0) } });
  const pending = async (sendId: number) => (await db.prisma.outboundSend.findUniqueOrThrow({ where: { id: BigInt(sendId) } })).sentCopyPending;

  test('a copy is stored in Sent, seen, under the mail id and Message-ID its send was given, and announced once stored', async () => {
    announced = [];
    const user = await createTestUser(db, 'copies');
    const [ann, ben] = ['ann', 'ben'].map(recipient);
    const send = await recorded(user, sendRequest({ to: [ann], bcc: [ben], subject: 'Minutes', saveCopy: true, requestReadReceipt: true }));
    assert.equal(await copyOf(send.sentMailId), null, 'the send is answered before its copy exists');
    await copies.store([send.id]);
    const copy = await copyOf(send.sentMailId);
    const { rows } = await db.sql.query<{ message_id: string }>(`SELECT request->>'messageId' AS message_id FROM outbound_sends WHERE id = $1`, [send.id]);
    assert.equal(copy?.mailboxId, user.mailboxes.sent);
    assert.equal(copy?.subject, 'Minutes');
    assert.equal(copy?.seen, true);
    assert.equal(copy?.messageId, rows[0].message_id);
    assert.ok(copy?.sentAt instanceof Date, 'the Date header composed into the copy is its sent date');
    assert.equal(await pending(send.id), false);
    assert.deepEqual(announced, [[{ userId: user.id, mailId: send.sentMailId, mailboxId: user.mailboxes.sent }]]);
    const receipts = await db.prisma.readReceipt.findMany({ where: { mailId: BigInt(send.sentMailId ?? 0) } });
    assert.deepEqual(receipts.map((receipt) => receipt.recipientEmail).sort(), [ann, ben].sort(), 'a read-receipt key for every recipient, Bcc included');
  });

  test('storing a copy again changes nothing and announces nothing', async () => {
    const user = await createTestUser(db, 'again');
    const send = await recorded(user, sendRequest({ to: [recipient('ann')], saveCopy: true }));
    await copies.store([send.id]);
    const first = await copyOf(send.sentMailId);
    announced = [];
    await copies.store([send.id]);
    assert.deepEqual(await copyOf(send.sentMailId), first);
    assert.deepEqual(announced, []);
  });

  test('the copy of a send cancelled before it was stored goes to Drafts', async () => {
    const user = await createTestUser(db, 'undone');
    const send = await recorded(user, sendRequest({ to: [recipient('ann')], saveCopy: true }));
    await db.prisma.outboundSend.update({ where: { id: BigInt(send.id) }, data: { status: 'cancelled' } });
    await copies.store([send.id]);
    assert.equal((await copyOf(send.sentMailId))?.mailboxId, user.mailboxes.drafts);
  });

  test('a copy that cannot be composed fails alone: the others stored with it are stored', async () => {
    const user = await createTestUser(db, 'broken');
    const lost = { filename: 'lost.pdf', contentType: 'application/pdf', storageKey: `missing/${randomUUID()}`, size: 10 };
    const broken = await recorded(user, sendRequest({ to: [recipient('ann')], saveCopy: true, attachments: [lost] }));
    const fine = await recorded(user, sendRequest({ to: [recipient('ben')], saveCopy: true }));
    await assert.rejects(copies.store([broken.id, fine.id]), new RegExp(`send ${broken.id}: `));
    assert.ok(await copyOf(fine.sentMailId));
    assert.equal(await copyOf(broken.sentMailId), null);
    assert.equal(await pending(broken.id), true, 'left for a retry, or the sweep');
  });
});
