import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceMail } from '@letterbox/mail-generator';
import type { Compression } from '@letterbox/storage';
import { createTestUser, poll, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

/** The files this process (the read API runs in it) holds open, by path; a descriptor closed while listed is skipped. */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

const holdsBlob = (key: string) => openFiles().some((file) => path.basename(file) === key);

/**
 * The 22 MB reference mail, stored plain and gzip'd, downloaded by a client that goes away
 * after the first chunk of the response: the server closes the stored file when it notices,
 * rather than keeping its descriptor until the process ends.
 */
describe('a download the client abandons midway', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'quitter');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  /** The response once its first body chunk has arrived; the client reads no further. */
  const firstChunkOf = (urlPath: string) =>
    new Promise<{ status: number; hangUp: () => void }>((resolve, reject) => {
      const request = get(`${api.url}${urlPath}`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (response) => {
        response.once('data', () => {
          response.pause();
          resolve({ status: response.statusCode ?? 0, hangUp: () => request.destroy() });
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET') reject(error);
      });
    });

  /** The 22 MB reference mail, its own blob for each download so that one route's leak is not blamed on another. */
  async function storeLargeMail(compression: Compression, subject: string) {
    const eml = await referenceMail('large', {
      from: { name: 'Sender', address: 'sender@example.test' },
      to: [{ name: 'Reader', address: user.email }],
      subject,
    });
    const mail = await storeMail(db, testBlobStore({ STORAGE_COMPRESS: compression }), { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    assert.equal(mail.storageKey.endsWith('.gz'), compression === 'gzip');
    return mail;
  }

  for (const compression of ['none', 'gzip'] as const) {
    for (const route of ['attachments.zip', 'attachments/2', 'raw']) {
      test(`GET /v2/mails/:id/${route}, stored with STORAGE_COMPRESS=${compression}: the stored file is closed once the client has gone`, async () => {
        const mail = await storeLargeMail(compression, `abandoned ${route} (${compression})`);
        const download = await firstChunkOf(`/v2/mails/${mail.id}/${route}`);
        assert.equal(download.status, 200);
        const opened = await poll(() => holdsBlob(mail.storageKey), { timeoutMs: 10_000, intervalMs: 20 });
        assert.equal(opened, true, 'the read API reads the stored file while the download is under way');
        download.hangUp();
        const closed = await poll(() => !holdsBlob(mail.storageKey), { timeoutMs: 10_000, intervalMs: 50 });
        assert.equal(closed, true, `the read API still holds ${mail.storageKey} open after its client went away`);
      });
    }
  }
});
