import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { primaryOnly, type Database } from '@letterbox/db';
import { MAX_PARTS } from '@letterbox/mime';
import { DiskBlobStore, type ByteRange } from '@letterbox/storage';
import { createTestUser, testDatabase, testSettings, type TestUser } from '@letterbox/testing';
import { MailContentReader } from './mail-content';
import { MailQueries } from './mail-queries';
import { storeMail } from '../store/store-mail';

/** A blob store that counts the read streams open at once, and the bytes read by ranges. */
class CountingBlobStore extends DiskBlobStore {
  open = 0;
  mostOpen = 0;
  rangeBytes = 0;

  override createReadStream(key: string, range?: ByteRange): Readable {
    const stream = super.createReadStream(key, range);
    this.mostOpen = Math.max(this.mostOpen, ++this.open);
    stream.once('close', () => this.open--);
    return stream;
  }

  override readRanges(key: string, ranges: ByteRange[]): Promise<Buffer[]> {
    this.rangeBytes += ranges.reduce((sum, range) => sum + range.end - range.start, 0);
    return super.readRanges(key, ranges);
  }
}

function multipart(parts: string[]): Buffer {
  const boundary = 'b0undary';
  return Buffer.from(
    `From: many@example.org\r\nTo: you@example.org\r\nSubject: many parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
      parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('') +
      `--${boundary}--\r\n`,
  );
}

describe('a message of very many parts', () => {
  let db: Database;
  let user: TestUser;
  let blobs: CountingBlobStore;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'many-parts');
    const settings = testSettings();
    blobs = new CountingBlobStore(settings.STORAGE_DIR, settings.STORAGE_COMPRESS);
  });

  after(() => db?.close());

  test('is stored with at most MAX_PARTS parts, measured through a few streams at a time, the rest counted', async () => {
    const attachment = (index: number) =>
      `Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="a${index}.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\nQUJD`;
    // As a stream, as incoming mail comes: its parts are then measured from storage.
    const eml = Readable.from([multipart(Array.from({ length: 5000 }, (_, index) => attachment(index)))]);
    const { id } = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    const mail = await new MailQueries(primaryOnly(db.sql)).record(user.id, id);
    assert.equal(mail.attachments.length, MAX_PARTS);
    assert.equal(mail.layout.omittedParts, 5000 - MAX_PARTS);
    assert.ok(blobs.mostOpen > 1 && blobs.mostOpen <= 10, `${blobs.mostOpen} streams open at once`);
  });

  test('a read decodes a bounded share of its body parts, and says the mail is cut', async () => {
    const html = (index: number) => `Content-Type: text/html; charset=utf-8\r\n\r\n<p>part ${index}</p>${'x'.repeat(300 * 1024)}`;
    const eml = multipart(Array.from({ length: 60 }, (_, index) => html(index)));
    const { id } = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    const mail = await new MailQueries(primaryOnly(db.sql)).record(user.id, id);
    assert.equal(mail.layout.bodies.length, 60);
    blobs.rangeBytes = 0;
    const content = await new MailContentReader(blobs).read(mail, (partId) => `/parts/${partId}`);
    assert.ok(blobs.rangeBytes <= 5 * 1024 * 1024, `${blobs.rangeBytes} bytes read`);
    assert.equal(content.truncated, true);
    assert.match(content.html ?? '', /part 0/);
  });
});
