import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { newCertKey, storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
const READER = 'reader@example.test';
const OTHER_READER = 'second.reader@example.test';

interface ReceiptRow {
  id: string;
  office_id: number;
  mail_id: string;
  recipient_email: string;
  cert_key: string;
  first_read_at: Date | null;
  read_count: number;
}

interface Pixel {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

describe('read receipt confirmation', () => {
  let db: Database;
  let api: RunningApi;
  let sender: TestUser;
  let elsewhere: TestUser;
  let senderToken: string;
  let mailId: number;
  let certKey: string;
  let otherCertKey: string;
  let elsewhereCertKey: string;

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    sender = await createTestUser(db, 'sender');
    elsewhere = await createTestUser(db, 'elsewhere');
    const eml = await randomMail(31337, {
      from: { name: 'Sender', address: sender.email },
      to: [
        { name: 'Reader', address: READER },
        { name: 'Second', address: OTHER_READER },
      ],
    });
    mailId = (await storeMail(db, blobs, { userId: sender.id, mailboxId: sender.mailboxes.sent, eml, seen: true })).id;
    certKey = newCertKey();
    otherCertKey = newCertKey();
    await db.prisma.readReceipt.create({ data: { officeId: sender.officeId, mailId: BigInt(mailId), recipientEmail: READER, certKey } });
    await db.prisma.readReceipt.create({
      data: { officeId: sender.officeId, mailId: BigInt(mailId), recipientEmail: OTHER_READER, certKey: otherCertKey },
    });
    // Another office's receipt: its key must not confirm through the sender's office number, nor the other way round.
    const elsewhereMail = await storeMail(db, blobs, {
      userId: elsewhere.id,
      mailboxId: elsewhere.mailboxes.sent,
      eml: await randomMail(31338, { from: { name: 'Elsewhere', address: elsewhere.email }, to: [{ name: 'Reader', address: READER }] }),
    });
    elsewhereCertKey = newCertKey();
    await db.prisma.readReceipt.create({
      data: { officeId: elsewhere.officeId, mailId: BigInt(elsewhereMail.id), recipientEmail: READER, certKey: elsewhereCertKey },
    });
    api = await startReadApiServer();
    senderToken = await api.login(sender.email, sender.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const confirmPath = (officeNo: number | string, key: string, email: string) =>
    `/v2/office/${officeNo}/receipt-confirm/${key}/email/${encodeURIComponent(email)}`;

  /** Opens the pixel as a recipient's mail client does: no token, no cookies. */
  async function open(path: string): Promise<Pixel> {
    const response = await fetch(`${api.url}${path}`);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  /** What differs between any two answers: when, and which request (X-Request-Id is every request's own). */
  const withoutDate = ({ date: _date, 'x-request-id': _requestId, ...headers }: Record<string, string>) => headers;

  /** Every receipt row of both offices, so that "nothing recorded" covers the offices a wrong request could touch. */
  const receipts = async () =>
    (
      await db.sql.query<ReceiptRow>(
        `SELECT id, office_id, mail_id, recipient_email, cert_key, first_read_at, read_count
           FROM read_receipts WHERE office_id = ANY($1::int[]) ORDER BY id`,
        [[sender.officeId, elsewhere.officeId]],
      )
    ).rows;
  const receiptOf = async (key: string) => (await receipts()).find((row) => row.cert_key === key) as ReceiptRow;

  let firstPixel: Pixel;
  let firstReadAt: Date;

  test('a recipient’s first open answers a 1x1 GIF that is never cached, and records the read', async () => {
    assert.equal((await receiptOf(certKey)).read_count, 0);
    firstPixel = await open(confirmPath(sender.officeId, certKey, READER));
    assert.equal(firstPixel.status, 200);
    assert.equal(firstPixel.headers['content-type'], 'image/gif');
    assert.match(firstPixel.headers['cache-control'], /no-store/);
    assert.equal(Number(firstPixel.headers['content-length']), firstPixel.body.length);
    assert.equal(firstPixel.body.subarray(0, 6).toString('latin1'), 'GIF89a');
    assert.equal(firstPixel.body.readUInt16LE(6), 1, 'width 1');
    assert.equal(firstPixel.body.readUInt16LE(8), 1, 'height 1');
    assert.equal(firstPixel.body[firstPixel.body.length - 1], 0x3b, 'ends with the GIF trailer');
    const row = await receiptOf(certKey);
    assert.equal(row.read_count, 1);
    assert.ok(row.first_read_at instanceof Date);
    firstReadAt = row.first_read_at;
    assert.equal((await receiptOf(otherCertKey)).read_count, 0, 'the other recipient’s receipt is untouched');
    assert.equal((await receiptOf(elsewhereCertKey)).read_count, 0);
  });

  test('50 concurrent opens are all counted and keep the first read time', async () => {
    const pixels = await Promise.all(Array.from({ length: 50 }, () => open(confirmPath(sender.officeId, certKey, READER))));
    for (const pixel of pixels) {
      assert.equal(pixel.status, 200);
      assert.ok(pixel.body.equals(firstPixel.body));
    }
    const row = await receiptOf(certKey);
    assert.equal(row.read_count, 51);
    assert.deepEqual(row.first_read_at, firstReadAt);
  });

  test('the email in the URL is compared case-insensitively', async () => {
    const pixel = await open(confirmPath(sender.officeId, certKey, READER.toUpperCase()));
    assert.equal(pixel.status, 200);
    const row = await receiptOf(certKey);
    assert.equal(row.read_count, 52);
    assert.deepEqual(row.first_read_at, firstReadAt);
  });

  const strangers: Array<[string, () => string]> = [
    ['an unknown key', () => confirmPath(sender.officeId, newCertKey(), READER)],
    ['a key of the right shape that was never issued', () => confirmPath(sender.officeId, 'A'.repeat(22), READER)],
    ['the right key under another office', () => confirmPath(elsewhere.officeId, certKey, READER)],
    ['the right key under an office that does not exist', () => confirmPath(2_147_483_647, certKey, READER)],
    ['another office’s key under this office', () => confirmPath(sender.officeId, elsewhereCertKey, READER)],
    ['the right key with another recipient’s email', () => confirmPath(sender.officeId, certKey, OTHER_READER)],
    ['the right key with an unknown email', () => confirmPath(sender.officeId, certKey, 'someone.else@example.test')],
    ['the other recipient’s key with the first recipient’s email', () => confirmPath(sender.officeId, otherCertKey, READER)],
  ];

  for (const [name, pathOf] of strangers) {
    test(`${name}: the same bytes and headers as a real open, and nothing recorded`, async () => {
      const snapshot = await receipts();
      const path = pathOf();
      const pixel = await open(path);
      assert.equal(pixel.status, firstPixel.status);
      assert.ok(pixel.body.equals(firstPixel.body), 'identical bytes');
      assert.deepEqual(withoutDate(pixel.headers), withoutDate(firstPixel.headers), 'identical headers but Date and X-Request-Id');
      assert.deepEqual(await receipts(), snapshot, 'no receipt of either office changed or was created');
      const key = decodeURIComponent(path.split('/')[4]);
      const { rows } = await db.sql.query<{ office_id: number; read_count: number }>('SELECT office_id, read_count FROM read_receipts WHERE cert_key = $1', [
        key,
      ]);
      for (const row of rows) assert.ok([sender.officeId, elsewhere.officeId].includes(row.office_id), 'a key is only ever in its own office');
    });
  }

  const malformed: Array<[string, () => string, string]> = [
    ['officeNo abc', () => confirmPath('abc', certKey, READER), 'path.officeNo'],
    ['officeNo 0', () => confirmPath(0, certKey, READER), 'path.officeNo'],
    ['officeNo -1', () => confirmPath(-1, certKey, READER), 'path.officeNo'],
    ['officeNo 1.5', () => confirmPath('1.5', certKey, READER), 'path.officeNo'],
    ['officeNo over 2^31', () => confirmPath(2_147_483_648, certKey, READER), 'path.officeNo'],
    ['email without an @', () => confirmPath(sender.officeId, certKey, 'reader.example.test'), 'path.email'],
    ['email of spaces', () => confirmPath(sender.officeId, certKey, '   '), 'path.email'],
    ['a too short key', () => confirmPath(sender.officeId, 'short', READER), 'path.certKey'],
    ['a key with symbols', () => confirmPath(sender.officeId, `${'a'.repeat(20)}!$`, READER), 'path.certKey'],
  ];
  for (const [name, path, field] of malformed) {
    test(`${name} is a 400 problem naming ${field}, and records nothing`, async () => {
      const snapshot = await receipts();
      const response = await fetch(`${api.url}${path()}`);
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
      const problem = (await response.json()) as { status: number; errors: Array<{ field: string }> };
      assert.equal(problem.status, 400);
      assert.deepEqual(
        problem.errors.map((error) => error.field),
        [field],
      );
      assert.deepEqual(await receipts(), snapshot);
    });
  }

  test('the sender sees each recipient’s receipt with ?with=receipt_confirm', async () => {
    const read = await receiptOf(certKey);
    const list = async (query: string) => {
      const response = await fetch(`${api.url}/v2/mails?mailboxId=${sender.mailboxes.sent}${query}`, {
        headers: { authorization: `Bearer ${senderToken}` },
      });
      assert.equal(response.status, 200);
      return (await response.json()) as { items: Array<{ id: number; receiptConfirm?: unknown; attachments?: unknown }> };
    };
    const expected = [
      { email: READER, firstReadAt: (read.first_read_at as Date).toISOString(), readCount: read.read_count },
      { email: OTHER_READER, firstReadAt: null, readCount: 0 },
    ];
    const page = await list('&with=receipt_confirm');
    assert.deepEqual(
      page.items.map((item) => item.id),
      [mailId],
    );
    assert.deepEqual(page.items[0].receiptConfirm, expected);
    assert.equal(page.items[0].attachments, undefined);
    assert.equal(read.read_count, 52);

    const both = await list('&with=receipt_confirm&with=attachments');
    assert.deepEqual(both.items[0].receiptConfirm, expected);
    assert.ok(Array.isArray(both.items[0].attachments));

    const plain = await list('');
    assert.equal(plain.items[0].receiptConfirm, undefined, 'receipts only when asked for');
  });
});
