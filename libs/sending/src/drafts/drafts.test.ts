import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import { JobQueues } from '@letterbox/queue';
import { failFastConnection, type RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, testSettings, unlinkKeys, type TestUser } from '@letterbox/testing';
import { Drafts } from './drafts';
import { DraftNotFoundError, DraftVersionConflictError, NotSendersAddressError } from '../send-errors';
import { sendGroupCommit } from '../submit/send-group-commit';
import { SendOutbox } from '../submit/send-outbox';
import { SendSubmission } from '../submit/send-submission';
import { SenderDirectory } from '../sender-directory';
import { TEST_QUOTA_BYTES } from '../testing/recorded-sends';

describe('Drafts: a draft saved version by version, then sent', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  const recipient = (name: string) => `${name}@${randomUUID().slice(0, 8)}.example`;
  const users = new Map<number, TestUser>();
  /** A user's alias and the name its identity shows. */
  const aliases = new Map<number, { address: string; name: string }>();
  let db: Database;
  let connection: RedisConnection;
  let queues: JobQueues;
  let drafts: Drafts;

  before(() => {
    db = testDatabase();
    connection = failFastConnection(testSettings(), 'test queues');
    queues = new JobQueues(connection, queuePrefix);
    const mails = new MailQueries(primaryOnly(db.sql));
    const submission = new SendSubmission({ db, blobs, mails, outbox: new SendOutbox(db, queues), queuePrefix, defaultQuotaBytes: TEST_QUOTA_BYTES });
    // The users of this file, as the accounts' directory would give them.
    const senders = new SenderDirectory(
      async (userIds) =>
        userIds.map((userId) => {
          const user = users.get(userId);
          const alias = aliases.get(userId);
          if (!user) return undefined;
          return alias
            ? { email: user.email, displayName: user.displayName, addresses: [user.email, alias.address], addressNames: { [alias.address]: alias.name } }
            : { email: user.email, displayName: user.displayName, addresses: [user.email] };
        }),
      sendGroupCommit(16),
    );
    drafts = new Drafts(db, blobs, mails, submission, senders, TEST_QUOTA_BYTES);
  });

  after(async () => {
    await unlinkKeys(connection, `${queuePrefix}*`);
    await queues.close();
    await db.close();
  });

  async function writer(name: string): Promise<TestUser & { userId: number }> {
    const user = await createTestUser(db, name);
    users.set(user.id, user);
    return { ...user, userId: user.id };
  }

  const mailOf = (draftId: number) => db.prisma.mail.findUnique({ where: { id: BigInt(draftId) }, include: { attachments: true } });

  test('a new draft is a mail in Drafts, at version 1', async () => {
    const user = await writer('new');
    const ann = recipient('ann');
    const draft = await drafts.create(user, { to: [ann], subject: 'Plans', text: 'A first line.' });
    assert.equal(draft.version, 1);
    assert.deepEqual(
      { to: draft.to, subject: draft.subject, text: draft.text, attachments: draft.attachments },
      { to: [ann], subject: 'Plans', text: 'A first line.', attachments: [] },
    );
    assert.deepEqual(await drafts.get(user.id, draft.id), draft);
    const mail = await mailOf(draft.id);
    assert.equal(mail?.mailboxId, user.mailboxes.drafts);
    assert.equal(mail?.subject, 'Plans');
  });

  test('a save over the current version replaces the fields given, keeps the others, and recomposes the mail', async () => {
    const user = await writer('saver');
    const file = await blobs.put(Buffer.from('the figures'));
    const draft = await drafts.create(user, {
      to: [recipient('ann')],
      subject: 'Plans',
      newAttachments: [{ filename: 'figures.txt', contentType: 'text/plain', storageKey: file.key, size: file.size }],
    });
    const saved = await drafts.update(user, draft.id, 1, { subject: 'Plans, revised' });
    assert.equal(saved.version, 2);
    assert.equal(saved.subject, 'Plans, revised');
    assert.deepEqual(saved.to, draft.to);
    assert.deepEqual(saved.attachments, draft.attachments);
    assert.equal((await mailOf(draft.id))?.subject, 'Plans, revised');
    const without = await drafts.update(user, draft.id, 2, { removeAttachments: [draft.attachments[0].id] });
    assert.deepEqual(without.attachments, []);
    assert.deepEqual((await mailOf(draft.id))?.attachments, []);
  });

  test('a save naming a version that is no longer the draft’s is refused: another tab saved in between', async () => {
    const user = await writer('tabs');
    const draft = await drafts.create(user, { subject: 'Two tabs' });
    await drafts.update(user, draft.id, 1, { subject: 'From the first tab' });
    const refused = await drafts.update(user, draft.id, 1, { subject: 'From the second tab' }).catch((error: unknown) => error);
    assert.ok(refused instanceof DraftVersionConflictError);
    assert.equal(refused.current, 2);
    assert.equal((await drafts.get(user.id, draft.id)).subject, 'From the first tab');
  });

  test('another user’s draft is not found; a removed draft is gone with its mail', async () => {
    const owner = await writer('owner');
    const other = await writer('other');
    const draft = await drafts.create(owner, { subject: 'Mine' });
    await assert.rejects(drafts.get(other.id, draft.id), DraftNotFoundError);
    await assert.rejects(drafts.update(other, draft.id, 1, { subject: 'Theirs' }), DraftNotFoundError);
    await assert.rejects(drafts.remove(other.id, draft.id), DraftNotFoundError);
    await drafts.remove(owner.id, draft.id);
    await assert.rejects(drafts.get(owner.id, draft.id), DraftNotFoundError);
    const mail = await mailOf(draft.id);
    assert.ok(mail === null || mail.deletedAt !== null, 'its mail is discarded');
  });

  test('a draft sent as saved becomes a queued send keeping a Sent copy, and leaves Drafts; an older version is not sent', async () => {
    const user = await writer('sender');
    const ann = recipient('ann');
    const draft = await drafts.create(user, { to: [ann], subject: 'Ready' });
    await drafts.update(user, draft.id, 1, { text: 'All done.' });
    await assert.rejects(drafts.send(user, draft.id, 1), DraftVersionConflictError);
    const send = await drafts.send(user, draft.id, 2);
    assert.equal(send.status, 'queued');
    assert.notEqual(send.sentMailId, null);
    assert.equal(await queues.has('deliver-send', { sendId: send.id }), true);
    const { rows } = await db.sql.query<{ request: { to: string[]; subject: string; text: string; saveCopy: boolean }; idempotency_key: string }>(
      'SELECT request, idempotency_key FROM outbound_sends WHERE id = $1',
      [send.id],
    );
    assert.deepEqual(
      { to: rows[0].request.to, subject: rows[0].request.subject, text: rows[0].request.text, saveCopy: rows[0].request.saveCopy },
      { to: [ann], subject: 'Ready', text: 'All done.', saveCopy: true },
    );
    assert.equal(rows[0].idempotency_key, `draft-${draft.id}-v2`);
    await assert.rejects(drafts.get(user.id, draft.id), DraftNotFoundError);
  });

  test('a draft written as an alias keeps it through saves, its mail shows the identity’s name, and its send goes out from it', async () => {
    const user = await writer('aliased');
    const alias = { address: `desk@${user.domain}`, name: 'The front desk' };
    aliases.set(user.id, alias);
    const draft = await drafts.create(user, { from: 'Desk@' + user.domain.toUpperCase(), to: [recipient('ann')], subject: 'From the desk' });
    assert.equal(draft.from, alias.address, 'kept lower-case, as the address is');
    const mail = await mailOf(draft.id);
    assert.deepEqual({ address: mail?.fromAddress, name: mail?.fromName }, { address: alias.address, name: alias.name });
    const saved = await drafts.update(user, draft.id, 1, { text: 'Second thoughts.' });
    assert.equal(saved.from, alias.address, 'a save that names no from keeps it');
    const send = await drafts.send(user, draft.id, 2);
    const { rows } = await db.sql.query<{ request: { from: string; fromName: string } }>('SELECT request FROM outbound_sends WHERE id = $1', [send.id]);
    assert.deepEqual({ from: rows[0].request.from, fromName: rows[0].request.fromName }, { from: alias.address, fromName: alias.name });
  });

  test('a draft from an address not the writer’s is refused, made or saved, and the draft keeps its own', async () => {
    const user = await writer('impostor');
    const other = await writer('someone');
    await assert.rejects(drafts.create(user, { from: other.email, subject: 'Not mine' }), NotSendersAddressError);
    const draft = await drafts.create(user, { subject: 'Mine' });
    assert.equal(draft.from, null, 'none given: the primary');
    await assert.rejects(drafts.update(user, draft.id, 1, { from: `boss@${user.domain}` }), NotSendersAddressError);
    const kept = await drafts.get(user.id, draft.id);
    assert.deepEqual({ version: kept.version, from: kept.from }, { version: 1, from: null });
  });
});
