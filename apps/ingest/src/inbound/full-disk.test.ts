import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import {
  createTestUser,
  type RunningIngestServer,
  TEST_INGEST_TOKEN,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  logFaultsAsExpected,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

// The disk is full on purpose here: its warnings are expected.
logFaultsAsExpected();

const asRoot = process.getuid?.() === 0;

/** Storage on a 256 KiB tmpfs: a full disk, for real, without filling the machine's. */
describe('a full disk', { skip: asRoot ? false : 'mounting a small tmpfs needs root' }, () => {
  let storage: string;
  let db: Database;
  let ingest: RunningIngestServer;
  let alice: TestUser;

  before(async () => {
    storage = mkdtempSync(path.join(tmpdir(), 'letterbox-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', storage]);
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: testQueuePrefix(), STORAGE_DIR: storage });
    alice = await createTestUser(db, 'alice');
  });

  after(async () => {
    await ingest?.close();
    await db?.close();
    execFileSync('umount', ['-l', storage]);
    rmSync(storage, { recursive: true, force: true });
  });

  test('answers 507 with a problem body and Retry-After, naming nothing of the machine', async () => {
    const answers: Array<{ status: number; type: string | null; retryAfter: string | null; detail: string }> = [];
    for (let index = 0; index < 6; index++) {
      const eml = `From: bulk@example.test\r\nTo: ${alice.email}\r\nSubject: filler ${index}\r\n\r\n${'x'.repeat(100_000)}\r\n`;
      const response = await fetch(`${ingest.url}/v2/inbound?to=${encodeURIComponent(alice.email)}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${TEST_INGEST_TOKEN}` },
        body: eml,
      });
      const body = (await response.json()) as { detail: string };
      answers.push({
        status: response.status,
        type: response.headers.get('content-type'),
        retryAfter: response.headers.get('retry-after'),
        detail: body.detail,
      });
    }
    assert.equal(answers[0].status, 202, JSON.stringify(answers[0]));
    const full = answers.filter((answer) => answer.status !== 202);
    assert.ok(full.length > 0, JSON.stringify(answers));
    for (const answer of full) {
      assert.equal(answer.status, 507, JSON.stringify(answer));
      assert.match(answer.type ?? '', /^application\/problem\+json/);
      assert.ok(Number(answer.retryAfter) > 0);
      assert.match(answer.detail, /storage is full/);
      assert.doesNotMatch(answer.detail, /ENOSPC|letterbox-full-disk|tmp/);
    }
  });
});
