import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { referenceAttachments, referenceMail } from './index';
import type { MailEnvelope } from './mail-envelope';
import { hasOnlyCrlfLineBreaks, headerSection, headerValue } from './testing/mail-assertions';
import { REFERENCE_DATE } from './reference/reference-mail';

const SIZES = ['small', 'medium', 'large'] as const;
type Size = (typeof SIZES)[number];

const TARGET_BYTES: Record<Size, number> = { small: 4 * 1024, medium: 712 * 1024, large: 22 * 1024 * 1024 };

const ENVELOPE: MailEnvelope = {
  from: { name: '김민준 🚀', address: 'minjun@hanbit-soft.example' },
  to: [
    { name: '山田 太郎', address: 'taro@sakura-trading.example' },
    { name: 'Emma Clark', address: 'emma@northwind.example' },
  ],
  cc: [{ name: '佐藤 健 ✨', address: 'ken@sakura-trading.example' }],
  date: new Date('2026-03-02T00:30:00Z'),
};

describe('referenceMail', () => {
  const mails = new Map<Size, Buffer>();
  const mail = (size: Size): Buffer => mails.get(size) ?? assert.fail(`${size} was not built`);

  before(async () => {
    for (const size of SIZES) mails.set(size, await referenceMail(size, ENVELOPE));
  });

  for (const size of SIZES) {
    test(`${size} is within 10% of ${TARGET_BYTES[size]} bytes`, () => {
      const ratio = mail(size).length / TARGET_BYTES[size];
      assert.ok(ratio > 0.9 && ratio < 1.1, `${size} is ${mail(size).length} bytes`);
    });

    test(`${size} ends every line in CRLF`, () => {
      assert.ok(hasOnlyCrlfLineBreaks(mail(size)));
    });

    test(`${size} embeds exactly the parts referenceAttachments('${size}') returns`, async () => {
      const parsed = await simpleParser(mail(size));
      const expected = referenceAttachments(size);
      assert.equal(parsed.attachments.length, expected.length);
      expected.forEach((attachment, index) => {
        const found = parsed.attachments[index];
        assert.equal(found.filename, attachment.filename);
        assert.equal(found.contentType, attachment.contentType);
        assert.equal(found.contentDisposition, attachment.disposition);
        assert.equal(found.cid, attachment.contentId);
        assert.ok(found.content.equals(attachment.content), `${attachment.filename} differs`);
      });
    });

    test(`${size} comes out byte for byte the same when built again`, async () => {
      assert.ok((await referenceMail(size, ENVELOPE)).equals(mail(size)));
    });
  }

  test('encodes the Korean, Japanese and emoji headers as RFC 2047 encoded words', async () => {
    const small = mail('small');
    assert.match(headerSection(small), /^[\x20-\x7e\r\n\t]*$/);
    for (const name of ['Subject', 'From', 'To', 'Cc']) {
      assert.match(headerValue(small, name) ?? '', /=\?UTF-8\?[BQ]\?/, name);
    }
    const parsed = await simpleParser(small);
    assert.equal(parsed.subject, '주간 회의록 · 週次議事録 · Weekly notes 📝');
    assert.equal(parsed.from?.value[0].name, '김민준 🚀');
    assert.equal(parsed.date?.getTime(), ENVELOPE.date?.getTime());
  });

  test('small is a multipart/alternative of text and html with no attachment', async () => {
    assert.match(headerValue(mail('small'), 'Content-Type') ?? '', /^multipart\/alternative;/);
    const parsed = await simpleParser(mail('small'));
    assert.match(parsed.text ?? '', /안녕하세요, 팀 여러분/);
    assert.match(parsed.html || '', /<h1[^>]*>주간 회의록/);
  });

  test('medium shows its inline image in the html through a cid: link', async () => {
    const parsed = await simpleParser(mail('medium'), { keepCidLinks: true });
    const [image] = referenceAttachments('medium');
    assert.equal(image.disposition, 'inline');
    assert.match(parsed.html || '', new RegExp(`src="cid:${image.contentId}"`));
  });

  test('large carries exactly one 16 MiB application/octet-stream archive.bin', () => {
    const archives = referenceAttachments('large').filter((attachment) => attachment.filename === 'archive.bin');
    assert.equal(archives.length, 1);
    assert.equal(archives[0].content.length, 16 * 1024 * 1024);
    assert.equal(archives[0].contentType, 'application/octet-stream');
  });

  test('takes Message-ID and subject from the envelope when given', async () => {
    const eml = await referenceMail('small', { ...ENVELOPE, messageId: '<given@letterbox.test>', subject: 'Given' });
    assert.equal(headerValue(eml, 'Message-ID'), '<given@letterbox.test>');
    assert.equal(headerValue(eml, 'Subject'), 'Given');
  });

  test('makes up a deterministic Message-ID that differs per size', () => {
    const ids = SIZES.map((size) => headerValue(mail(size), 'Message-ID') ?? '');
    ids.forEach((id, index) => assert.match(id, new RegExp(`^<reference-${SIZES[index]}\\.[0-9a-f]{24}@hanbit-soft\\.example>$`)));
    assert.equal(new Set(ids).size, SIZES.length);
  });

  // The real clock, moved past a second between the two, not node:test's mock timers (an experimental API
  // whose ExperimentalWarning every test run printed).
  test('lets no clock time in when the envelope has no date', async () => {
    const undated = { ...ENVELOPE, date: undefined };
    const first = await referenceMail('small', undated);
    await sleep(1100);
    const second = await referenceMail('small', undated);
    assert.ok(first.equals(second));
    assert.equal(new Date(headerValue(first, 'Date') ?? '').getTime(), REFERENCE_DATE.getTime());
  });
});
