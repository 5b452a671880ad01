import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { dkimSign } from 'mailauth';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '@letterbox/db';
import type { DnsResolve } from '@letterbox/dns';
import type { MailAuthentication } from '@letterbox/mail-auth';
import type { JobQueues } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import {
  accessTokenFor,
  type ApiProcess,
  type AppProcess,
  createTestUser,
  type RunningIngestServer,
  startIngestWorkerProcess,
  startReadApiProcess,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

// The outside DNS, faked: domains that pass, that publish p=reject or p=quarantine, and one whose server never answers.
const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKey = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const records: Record<string, string[][]> = {
  'TXT pass.test': [['v=spf1 ip4:127.0.0.1 -all']],
  'TXT sel._domainkey.pass.test': [[`v=DKIM1; k=rsa; p=${key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]],
  'TXT _dmarc.pass.test': [['v=DMARC1; p=reject']],
  'TXT reject.test': [['v=spf1 -all']],
  'TXT _dmarc.reject.test': [['v=DMARC1; p=reject']],
  'TXT quarantine.test': [['v=spf1 -all']],
  'TXT _dmarc.quarantine.test': [['v=DMARC1; p=quarantine']],
};
const fakeDns: DnsResolve = (name, rrtype) => {
  if (name.toLowerCase().endsWith('silent.test')) return new Promise(() => undefined);
  const answer = records[`${rrtype} ${name.toLowerCase()}`];
  return answer ? Promise.resolve(answer) : Promise.reject(Object.assign(new Error(`${name} not found`), { code: 'ENOTFOUND' }));
};

const AUTHSERV_ID = 'mx.letterbox.test';

describe('incoming mail is checked before it is stored', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let blobs: BlobStore;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let readApi: ApiProcess;
  let queues: JobQueues;
  let bob: TestUser;
  let smtp: Transporter;

  before(async () => {
    db = testDatabase();
    blobs = testBlobStore();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix, INGEST_AUTHSERV_ID: AUTHSERV_ID, INGEST_DNS_BUDGET_MS: '500' }, fakeDns);
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    readApi = await startReadApiProcess();
    queues = testQueues(queuePrefix);
    bob = await createTestUser(db, 'bob');
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.smtpPort, secure: false, ignoreTLS: true });
  });

  after(async () => {
    smtp?.close();
    await readApi?.stop();
    await worker?.stop();
    await ingest?.close();
    await queues?.close();
    await db?.close();
  });

  function message(from: string, extraHeaders = '', body = 'The numbers are in.\r\n'): { raw: Buffer; messageId: string } {
    const messageId = `<checks-${randomUUID()}@outside.test>`;
    const raw = Buffer.from(
      `${extraHeaders}From: Sender <${from}>\r\nTo: Bob <${bob.email}>\r\nSubject: Quarterly numbers\r\nDate: Fri, 27 Nov 2026 07:00:00 +0000\r\nMessage-ID: ${messageId}\r\n\r\n${body}`,
    );
    return { raw, messageId };
  }

  async function signed(raw: Buffer): Promise<Buffer> {
    const signer = { signingDomain: 'pass.test', selector: 'sel', privateKey };
    const { signatures } = await dkimSign(raw, { canonicalization: 'relaxed/relaxed', signTime: new Date(), ...signer, signatureData: [signer] });
    return Buffer.concat([Buffer.from(signatures), raw]);
  }

  const send = (raw: Buffer, sender: string) => smtp.sendMail({ envelope: { from: sender, to: [bob.email] }, raw });

  async function stored(messageId: string) {
    return waitFor(
      async () => {
        const { rows } = await db.sql.query<{ id: string; role: string; authentication: MailAuthentication; storage_key: string; size: number }>(
          `SELECT m.id, b.role, m.authentication, m.storage_key, m.size FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id
            WHERE m.user_id = $1 AND m.message_id = $2`,
          [bob.id, messageId],
        );
        return rows[0];
      },
      { what: `the mail ${messageId}` },
    );
  }

  test('a signed mail from an address its SPF names passes, and the message is stored with its trace headers, a spoofed result of ours removed', async () => {
    const spoofed = `Authentication-Results: ${AUTHSERV_ID};\r\n dmarc=pass header.from=pass.test\r\nAuthentication-Results: gw.elsewhere.example; spf=pass\r\n`;
    const { raw, messageId } = message('ann@pass.test', spoofed);
    const info = await send(await signed(raw), 'ann@pass.test');
    assert.match(String(info.response), /^250 /);
    const mail = await stored(messageId);
    assert.equal(mail.role, 'inbox');
    assert.deepEqual(mail.authentication, { spf: 'pass', dkim: 'pass', dmarc: 'pass', arc: 'none', fromDomain: 'pass.test', sender: 'verified' });
    const eml = await text(blobs.createReadStream(mail.storage_key));
    assert.equal(Buffer.byteLength(eml), mail.size);
    assert.match(eml, /^Received: from \S+ \(\[127\.0\.0\.1\]\) by mx\.letterbox\.test with ESMTP\r\n id [0-9a-f-]{36};\r\n /);
    const ours = eml.match(/^Authentication-Results: mx\.letterbox\.test;.*(\r\n[ \t].*)*/gm) ?? [];
    assert.equal(ours.length, 1, 'only the Authentication-Results Letterbox wrote');
    assert.match(ours[0], /dkim=pass/);
    assert.doesNotMatch(eml, /dmarc=pass header\.from=pass\.test\r\nAuthentication-Results: gw/);
    assert.match(eml, /^Authentication-Results: gw\.elsewhere\.example; spf=pass$/m);

    const token = accessTokenFor(bob);
    await waitFor(() => queues.has('notify-new-mail', { userId: bob.id, mailId: Number(mail.id), from: '', subject: '' }), { what: 'its notification' });

    const detail = await fetch(`${readApi.url}/v2/mails/${mail.id}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(detail.status, 200);
    assert.deepEqual(((await detail.json()) as { authentication: MailAuthentication }).authentication, mail.authentication);
    const download = await fetch(`${readApi.url}/v2/mails/${mail.id}/raw`, { headers: { authorization: `Bearer ${token}` } });
    const downloaded = await download.text();
    assert.match(downloaded, /^Received: /);
    assert.match(downloaded, /\r\nAuthentication-Results: mx\.letterbox\.test;/);
  });

  test('a large message, streamed into storage, is checked and stored with its trace headers all the same', async () => {
    const body = `${'All the numbers, line after line.\r\n'.repeat(12_000)}`;
    const { raw, messageId } = message('ann@pass.test', `Authentication-Results: ${AUTHSERV_ID}; dkim=pass\r\n`, body);
    await send(await signed(raw), 'ann@pass.test');
    const mail = await stored(messageId);
    assert.equal(mail.authentication.dkim, 'pass');
    const eml = await text(blobs.createReadStream(mail.storage_key));
    assert.ok(eml.length > 400_000);
    assert.match(eml, /^Received: /);
    assert.equal((eml.match(/^Authentication-Results: mx\.letterbox\.test;/gm) ?? []).length, 1);
    assert.ok(eml.endsWith(body));
  });

  test('a message without a Message-ID, delivered twice, is stored once: its trace headers do not make it another message', async () => {
    const subject = `No Message-ID ${randomUUID()}`;
    const raw = Buffer.from(`From: ann@pass.test\r\nTo: ${bob.email}\r\nSubject: ${subject}\r\n\r\nOnce.\r\n`);
    const inboundIds: Array<string | undefined> = [];
    for (const _attempt of [1, 2]) inboundIds.push(/queued as ([0-9a-f-]{36})/.exec(String((await send(raw, 'ann@pass.test')).response))?.[1]);
    await waitFor(async () => (await db.sql.query('SELECT 1 FROM inbound_acceptances WHERE inbound_id = ANY($1::uuid[])', [inboundIds])).rowCount === 0, {
      what: 'both acceptances handled',
    });
    const { rows } = await db.sql.query('SELECT 1 FROM mails WHERE user_id = $1 AND subject = $2', [bob.id, subject]);
    assert.equal(rows.length, 1);
  });

  test('a DMARC p=reject failure is refused after DATA with 550 5.7.1, and over HTTP with 422', async () => {
    const { raw, messageId } = message('ceo@reject.test');
    await assert.rejects(send(raw, 'ceo@reject.test'), (error: { responseCode?: number; response?: string }) => {
      assert.equal(error.responseCode, 550);
      assert.match(String(error.response), /5\.7\.1 DMARC failed for the From domain reject\.test/);
      return true;
    });
    const answer = await ingest.post(raw, { to: [bob.email], query: { ip: '192.0.2.1', helo: 'mail.reject.test', sender: 'ceo@reject.test' } });
    assert.equal(answer.status, 422);
    assert.match(answer.contentType ?? '', /application\/problem\+json/);
    assert.match(String(answer.body.detail), /DMARC failed for the From domain reject\.test, whose policy is reject/);
    const { rows } = await db.sql.query('SELECT 1 FROM mails WHERE user_id = $1 AND message_id = $2', [bob.id, messageId]);
    assert.equal(rows.length, 0);
  });

  test('a large p=reject failure, refused after it streamed into storage, leaves no file behind', async () => {
    const { raw, messageId } = message('ceo@reject.test', '', 'Pay the invoice attached.\r\n'.repeat(12_000));
    await assert.rejects(send(raw, 'ceo@reject.test'), { responseCode: 550 });
    const stillThere = await blobs.readRanges(blobs.keyOf(raw), [{ start: 0, end: 1 }]).then(
      () => true,
      () => false,
    );
    assert.equal(stillThere, false);
    const { rows } = await db.sql.query('SELECT 1 FROM mails WHERE user_id = $1 AND message_id = $2', [bob.id, messageId]);
    assert.equal(rows.length, 0);
  });

  test('a DMARC p=quarantine failure goes to Spam', async () => {
    const { raw, messageId } = message('ann@quarantine.test');
    await send(raw, 'ann@quarantine.test');
    const mail = await stored(messageId);
    assert.equal(mail.role, 'spam');
    assert.equal(mail.authentication.sender, 'failed');
  });

  test("GTUBE, from a sender whose checks pass, lands in Spam with rspamd's score and symbols on its detail", async () => {
    const gtube = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
    const { raw, messageId } = message('ann@pass.test', '', `Limited offer!\r\n${gtube}\r\n`);
    await send(await signed(raw), 'ann@pass.test');
    const mail = await stored(messageId);
    assert.equal(mail.role, 'spam');
    assert.equal(mail.authentication.sender, 'verified');
    const detail = await fetch(`${readApi.url}/v2/mails/${mail.id}`, { headers: { authorization: `Bearer ${accessTokenFor(bob)}` } });
    const { spam } = (await detail.json()) as { spam: { score: number; requiredScore: number; action: string; symbols: Array<{ name: string }> } };
    assert.equal(spam.action, 'reject');
    assert.ok(spam.score >= spam.requiredScore);
    assert.ok(spam.symbols.some(({ name }) => name === 'GTUBE'));
  });

  test("a colleague's address in From, on mail from outside, goes to Spam as a forged colleague", async () => {
    const { raw, messageId } = message(`alice@${bob.domain}`);
    const inboundId = /queued as ([0-9a-f-]{36})/.exec(String((await send(raw, 'someone@outside.test')).response))?.[1];
    const mail = await stored(messageId);
    assert.equal(mail.role, 'spam');
    assert.equal(mail.authentication.sender, 'forged-colleague');
    assert.equal(mail.authentication.fromDomain, bob.domain);
    // Announced once its acceptance is forgotten: no push shows the colleague's name on it.
    await waitFor(async () => (await db.sql.query('SELECT 1 FROM inbound_acceptances WHERE inbound_id = $1', [inboundId])).rowCount === 0, {
      what: 'the acceptance handled',
    });
    assert.equal(await queues.has('notify-new-mail', { userId: bob.id, mailId: Number(mail.id), from: '', subject: '' }), false);
  });

  test('when DNS never answers, the mail is acknowledged and stored in the inbox, its results temperror', async () => {
    const { raw, messageId } = message('ann@silent.test');
    const info = await send(raw, 'ann@silent.test');
    assert.match(String(info.response), /^250 /);
    const mail = await stored(messageId);
    assert.equal(mail.role, 'inbox');
    assert.deepEqual(mail.authentication, { spf: 'temperror', dkim: 'none', dmarc: 'temperror', arc: 'none', fromDomain: 'silent.test', sender: 'unverified' });
  });

  test("the HTTP intake takes the trusted gateway's own results", async () => {
    const gateway = await startIngestServer({ QUEUE_PREFIX: queuePrefix, INGEST_TRUSTED_AUTHSERV_ID: 'gw.trusted.example' }, fakeDns);
    try {
      const { raw, messageId } = message('ann@silent.test');
      const answer = await gateway.post(raw, { to: [bob.email], headers: { 'authentication-results': 'gw.trusted.example; spf=pass; dkim=pass; dmarc=pass' } });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      const mail = await stored(messageId);
      assert.equal(mail.authentication.sender, 'verified');
    } finally {
      await gateway.close();
    }
  });
});
