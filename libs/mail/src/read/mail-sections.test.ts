import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { primaryOnly, type Database } from '@letterbox/db';
import { referenceAttachments, referenceMail } from '@letterbox/mail-generator';
import { envelopeOf, locateBinarySection, parseImapSection, type EncodedContent, type MimePart } from '@letterbox/mime';
import { DiskBlobStore, type ByteRange } from '@letterbox/storage';
import { createTestUser, testDatabase, testSettings, type TestUser } from '@letterbox/testing';
import { MailQueries } from './mail-queries';
import { MailSectionReader, type SectionedMail } from './mail-sections';
import { MailNotFoundError } from '../mail-errors';
import { MailMimeTrees } from '../store/mail-mime-trees';
import { storeMail } from '../store/store-mail';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A blob store that counts the bytes it hands out, by streams and by ranges: what a read took from storage. */
class CountingBlobStore extends DiskBlobStore {
  bytesRead = 0;

  override createReadStream(key: string, range?: ByteRange): Readable {
    const stream = super.createReadStream(key, range);
    stream.on('data', (chunk: Buffer) => (this.bytesRead += chunk.length));
    return stream;
  }

  override readRanges(key: string, ranges: ByteRange[]): Promise<Buffer[]> {
    this.bytesRead += ranges.reduce((sum, range) => sum + range.end - range.start, 0);
    return super.readRanges(key, ranges);
  }
}

const ENVELOPE = { from: { name: 'Ann', address: 'ann@x.test' }, to: [{ name: 'Bob', address: 'bob@y.test' }] };

async function bytesOf(stream: Readable): Promise<Buffer> {
  return Buffer.concat(await stream.toArray());
}

/** The part number of the first part of this type, as IMAP numbers it. */
function partNumberOf(tree: MimePart, type: string): string | undefined {
  const visit = (parts: MimePart[], prefix: string): string | undefined => {
    for (const [index, part] of parts.entries()) {
      const number = prefix + (index + 1);
      if (part.type === type) return number;
      const found = part.parts ? visit(part.parts, number + '.') : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return visit(tree.parts ?? [tree], '');
}

describe('reading IMAP sections of stored mail', () => {
  const archivePart = () => (partNumberOf(largeMail.tree, 'application/octet-stream') ?? '').split('.').map(Number);

  let db: Database;
  let user: TestUser;
  let blobs: CountingBlobStore;
  let reader: MailSectionReader;
  let large: Buffer;
  let largeMail: SectionedMail;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-sections');
    const settings = testSettings();
    blobs = new CountingBlobStore(settings.STORAGE_DIR, settings.STORAGE_COMPRESS);
    reader = new MailSectionReader(blobs);
    large = await referenceMail('large', ENVELOPE);
    const { id } = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: large });
    const record = await new MailQueries(primaryOnly(db.sql)).record(user.id, id);
    assert.ok(record.layout.tree, 'a newly stored mail has its tree');
    largeMail = { id, storageKey: record.storageKey, tree: record.layout.tree };
  });

  after(() => db?.close());

  test("reads the 22 MB mail's header and its text part without touching its attachment", async () => {
    blobs.bytesRead = 0;
    const header = await reader.open(largeMail, parseImapSection('HEADER'));
    const headerBytes = await bytesOf(header.stream);
    assert.ok(headerBytes.equals(large.subarray(0, largeMail.tree.body)));
    assert.equal(header.length, headerBytes.length);

    const textPart = partNumberOf(largeMail.tree, 'text/plain');
    assert.ok(textPart);
    const text = await reader.open(largeMail, parseImapSection(textPart));
    const textBytes = await bytesOf(text.stream);
    assert.equal(text.length, textBytes.length);
    assert.ok(textBytes.length > 0);
    assert.equal(blobs.bytesRead, headerBytes.length + textBytes.length, 'storage gave exactly the two sections');

    blobs.bytesRead = 0;
    const fields = await reader.open(largeMail, parseImapSection('HEADER.FIELDS (FROM TO)'));
    assert.match((await bytesOf(fields.stream)).toString(), /^(From|To): .*\r\n(From|To): .*\r\n\r\n$/);
    assert.equal(blobs.bytesRead, headerBytes.length);
  });

  test('streams a whole BODY[] of the 22 MB mail with memory growth far below its size', async () => {
    const whole = await reader.open(largeMail, parseImapSection(''));
    assert.equal(whole.length, large.length);
    gc();
    const baseline = memory();
    let peak = 0;
    let chunks = 0;
    const hash = createHash('sha256');
    for await (const chunk of whole.stream) {
      hash.update(chunk as Buffer);
      if (chunks++ % 32 !== 0) continue;
      gc();
      peak = Math.max(peak, memory() - baseline);
    }
    assert.equal(hash.digest('hex'), createHash('sha256').update(large).digest('hex'));
    assert.ok(peak < 8 * 1024 * 1024, `peak growth ${peak} bytes`);
  });

  test('gives partial fetches, <origin.count>, of a span and of picked header fields', async () => {
    const partial = await reader.open(largeMail, parseImapSection(''), { origin: 100, count: 50 });
    assert.equal(partial.length, 50);
    assert.ok((await bytesOf(partial.stream)).equals(large.subarray(100, 150)));

    const pastEnd = await reader.open(largeMail, parseImapSection('HEADER'), { origin: 10_000_000, count: 10 });
    assert.equal(pastEnd.length, 0);
    assert.equal((await bytesOf(pastEnd.stream)).length, 0);

    const fields = await bytesOf((await reader.open(largeMail, parseImapSection('HEADER.FIELDS (SUBJECT)'))).stream);
    const cut = await reader.open(largeMail, parseImapSection('HEADER.FIELDS (SUBJECT)'), { origin: 2, count: 5 });
    assert.equal(cut.length, 5);
    assert.ok((await bytesOf(cut.stream)).equals(fields.subarray(2, 7)));
  });

  test("decodes the 22 MB mail's 16 MiB base64 attachment as it streams (BINARY), twice over and never held", async () => {
    const archive = referenceAttachments('large').find((attachment) => attachment.filename === 'archive.bin')!.content as Buffer;
    const located = locateBinarySection(largeMail.tree, archivePart());
    assert.equal(located.kind, 'content');
    const content = (located as { content: EncodedContent }).content;
    assert.equal(content.encoding, 'base64');
    const encodedLength = content.span.end - content.span.start;

    blobs.bytesRead = 0;
    assert.equal(await reader.decodedLength(largeMail, content), archive.length);
    assert.equal(blobs.bytesRead, encodedLength, 'counted by one pass over the part alone');

    gc();
    const baseline = memory();
    blobs.bytesRead = 0;
    const decoded = await reader.openDecoded(largeMail, content);
    assert.equal(decoded.length, archive.length);
    assert.equal(decoded.containsNul, archive.includes(0));
    let peak = 0;
    let chunks = 0;
    const hash = createHash('sha256');
    for await (const chunk of decoded.stream) {
      hash.update(chunk as Buffer);
      if (chunks++ % 32 !== 0) continue;
      gc();
      peak = Math.max(peak, memory() - baseline);
    }
    assert.equal(hash.digest('hex'), createHash('sha256').update(archive).digest('hex'));
    assert.ok(peak < 8 * 1024 * 1024, `peak growth ${peak} bytes`);
    assert.equal(blobs.bytesRead, 2 * encodedLength, 'read twice: to count, then to send');
  });

  test('gives partials of decoded content, <origin.count> counting decoded bytes, reading no further than the slice', async () => {
    const archive = referenceAttachments('large').find((attachment) => attachment.filename === 'archive.bin')!.content as Buffer;
    const located = locateBinarySection(largeMail.tree, archivePart());
    const content = (located as { content: EncodedContent }).content;
    const encodedLength = content.span.end - content.span.start;
    const middle = await reader.openDecoded(largeMail, content, { origin: 5_000_001, count: 1000 });
    assert.equal(middle.length, 1000);
    assert.ok((await bytesOf(middle.stream)).equals(archive.subarray(5_000_001, 5_001_001)));

    blobs.bytesRead = 0;
    const head = await reader.openDecoded(largeMail, content, { origin: 0, count: 10 });
    assert.ok((await bytesOf(head.stream)).equals(archive.subarray(0, 10)));
    assert.ok(blobs.bytesRead < encodedLength + 1024 * 1024, `read ${blobs.bytesRead} bytes for a count and 10 bytes`);

    const tail = await reader.openDecoded(largeMail, content, { origin: archive.length - 3, count: 10 });
    assert.ok((await bytesOf(tail.stream)).equals(archive.subarray(-3)));
    assert.equal((await reader.openDecoded(largeMail, content, { origin: archive.length, count: 10 })).length, 0);
  });

  test('reads content stored as it is (BINARY[], the whole mail) by range, its length known without a read', async () => {
    const located = locateBinarySection(largeMail.tree, []);
    const content = (located as { content: EncodedContent }).content;
    assert.equal(content.encoding, '');
    blobs.bytesRead = 0;
    assert.equal(await reader.decodedLength(largeMail, content), large.length);
    assert.equal(blobs.bytesRead, 0);
    const cut = await reader.openDecoded(largeMail, content, { origin: 100, count: 50 });
    assert.equal(cut.length, 50);
    assert.ok((await bytesOf(cut.stream)).equals(large.subarray(100, 150)));
    assert.equal(cut.containsNul, large.includes(0));
  });

  test('answers a missing part with nothing, and the top-level header block for ENVELOPE', async () => {
    const missing = await reader.open(largeMail, parseImapSection('9.9'));
    assert.equal(missing.length, 0);
    assert.ok((await reader.headerBlock(largeMail)).equals(large.subarray(0, largeMail.tree.body)));
  });

  test("gives a mail's ENVELOPE from its recorded fields without reading storage, and from its header block for an older tree", async () => {
    const fromBlock = envelopeOf(large.subarray(0, largeMail.tree.body));
    assert.ok(largeMail.tree.envelope, 'a newly stored mail records its envelope fields');
    blobs.bytesRead = 0;
    assert.deepEqual(await reader.envelope(largeMail), fromBlock);
    assert.equal(blobs.bytesRead, 0);

    const olderTree = { ...largeMail.tree, envelope: undefined };
    assert.deepEqual(await reader.envelope({ ...largeMail, tree: olderTree }), fromBlock);
    assert.equal(blobs.bytesRead, largeMail.tree.body);
  });

  test('finds the tree of a mail stored without one on its first fetch, by one read of its EML, and stores it', async () => {
    const eml = await referenceMail('medium', ENVELOPE);
    const { id } = await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
    const queries = new MailQueries(primaryOnly(db.sql));
    const stored = (await queries.record(user.id, id)).layout.tree;
    await db.sql.query(`UPDATE mails SET layout = layout - 'tree' WHERE id = $1`, [id]);
    const old = await queries.record(user.id, id);
    assert.equal(old.layout.tree, undefined);

    const trees = new MailMimeTrees(db, blobs);
    blobs.bytesRead = 0;
    const tree = await trees.treeOf({ id, storageKey: old.storageKey, layout: old.layout });
    assert.equal(blobs.bytesRead, eml.length);
    assert.deepEqual(tree, stored);

    const again = await queries.record(user.id, id);
    assert.deepEqual(again.layout.tree, stored);
    blobs.bytesRead = 0;
    assert.deepEqual(await trees.treeOf({ id, storageKey: again.storageKey, layout: again.layout }), stored);
    assert.deepEqual(await trees.sectionedMail(user.id, id), { id, storageKey: again.storageKey, tree: stored });
    assert.equal(blobs.bytesRead, 0);
    await assert.rejects(trees.sectionedMail(user.id + 1_000_000, id), MailNotFoundError);
  });

  test("records the envelope of a chunk's mails stored before envelopes were, once, from their header blocks", async () => {
    await db.sql.query(`UPDATE mails SET layout = layout #- '{tree,envelope}' WHERE id = $1`, [largeMail.id]);
    const queries = new MailQueries(primaryOnly(db.sql));
    const older = await queries.record(user.id, largeMail.id);
    assert.equal(older.layout.tree?.envelope, undefined);
    const trees = new MailMimeTrees(db, blobs);
    blobs.bytesRead = 0;
    const [tree] = await trees.treesOf([{ id: largeMail.id, storageKey: older.storageKey, layout: older.layout }]);
    assert.equal(blobs.bytesRead, largeMail.tree.body, 'the header block alone, not the 22 MB');
    assert.deepEqual(tree.envelope, largeMail.tree.envelope);
    const again = await queries.record(user.id, largeMail.id);
    assert.deepEqual(again.layout.tree, largeMail.tree);
    blobs.bytesRead = 0;
    await trees.treesOf([{ id: largeMail.id, storageKey: again.storageKey, layout: again.layout }]);
    assert.equal(blobs.bytesRead, 0);
  });

  test('reads sections of a mail in a store that compresses', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'imap-sections-gzip-'));
    try {
      const gzipBlobs = new DiskBlobStore(root, 'gzip');
      const eml = await referenceMail('medium', ENVELOPE);
      const { id } = await storeMail(db, gzipBlobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml });
      const record = await new MailQueries(primaryOnly(db.sql)).record(user.id, id);
      const mail = { id, storageKey: record.storageKey, tree: record.layout.tree as MimePart };
      const html = partNumberOf(mail.tree, 'text/html') as string;
      const section = await new MailSectionReader(gzipBlobs).open(mail, parseImapSection(`${html}.MIME`));
      const bytes = await bytesOf(section.stream);
      assert.equal(section.length, bytes.length);
      assert.match(bytes.toString(), /^Content-Type: text\/html[^]*\r\n\r\n$/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
