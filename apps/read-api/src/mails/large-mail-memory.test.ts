import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceMail } from '@letterbox/mail-generator';
import { type ApiProcess, createTestUser, startReadApiProcess, testBlobStore, testDatabase } from '@letterbox/testing';

const MB = 1024 * 1024;
const CONCURRENT_READS = 20;

/**
 * A 22 MB mail with a 16 MB attachment, read by 20 clients at once, in a server whose
 * heap is capped at 512 MB. Attachment buffers would live outside the V8 heap, so the
 * server's resident memory is what is measured, not its heap.
 */
describe('reading a 22 MB mail', () => {
  let db: Database;
  let api: ApiProcess;
  let token: string;
  let mailId: number;

  before(async () => {
    db = testDatabase();
    const user = await createTestUser(db, 'big-reader');
    const eml = await referenceMail('large', { from: { name: 'Sender', address: 'sender@example.test' }, to: [{ name: 'Reader', address: user.email }] });
    mailId = (await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: user.mailboxes.inbox, eml })).id;
    api = await startReadApiProcess({ nodeOptions: ['--max-old-space-size=512'] });
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.stop();
    await db?.close();
  });

  async function peakRssGrowthDuring(work: () => Promise<void>): Promise<number> {
    const idle = await api.rss();
    let peak = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await api.rss());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    await work();
    sampling = false;
    await sampler;
    return peak - idle;
  }

  const read = (path: string) => fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  test(`${CONCURRENT_READS} concurrent reads all succeed and RSS grows by less than 50 MB`, async () => {
    for (let warmUp = 0; warmUp < 3; warmUp++) await (await read(`/v2/mails/${mailId}`)).arrayBuffer();
    const growth = await peakRssGrowthDuring(async () => {
      const responses = await Promise.all(Array.from({ length: CONCURRENT_READS }, () => read(`/v2/mails/${mailId}`)));
      for (const response of responses) {
        assert.equal(response.status, 200);
        const mail = (await response.json()) as { attachments: Array<{ size: number }> };
        assert.equal(mail.attachments[0].size, 16 * MB);
      }
    });
    assert.ok(growth < 50 * MB, `RSS grew by ${(growth / MB).toFixed(1)} MB`);
  });

  test(`${CONCURRENT_READS} concurrent 16 MB attachment downloads stream without buffering`, async () => {
    const growth = await peakRssGrowthDuring(async () => {
      await Promise.all(
        Array.from({ length: CONCURRENT_READS }, async () => {
          const response = await read(`/v2/mails/${mailId}/attachments/2`);
          assert.equal(response.status, 200);
          let bytes = 0;
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
          assert.equal(bytes, 16 * MB);
        }),
      );
    });
    assert.ok(growth < 50 * MB, `RSS grew by ${(growth / MB).toFixed(1)} MB`);
  });

  test(`${CONCURRENT_READS} concurrent zips of its attachments stream without buffering`, async () => {
    const growth = await peakRssGrowthDuring(async () => {
      await Promise.all(
        Array.from({ length: CONCURRENT_READS }, async () => {
          const response = await read(`/v2/mails/${mailId}/attachments.zip`);
          assert.equal(response.status, 200);
          let bytes = 0;
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
          assert.equal(bytes, Number(response.headers.get('content-length')));
          assert.ok(bytes > 16 * MB);
        }),
      );
    });
    assert.ok(growth < 50 * MB, `RSS grew by ${(growth / MB).toFixed(1)} MB`);
  });
});
