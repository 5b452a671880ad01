import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { randomMail } from './index';
import { hasOnlyCrlfLineBreaks, headerValue } from './testing/mail-assertions';
import { RANDOM_MAIL_LATEST, RANDOM_MAIL_SPAN_SECONDS } from './random/random-mail';

const SEEDS = Array.from({ length: 80 }, (_, index) => index);

/** Which body parts the composer wrote; attachments carry a name= parameter and are left out. */
function bodyFormat(eml: Buffer): string {
  const contentTypes = eml.toString('utf8').match(/^Content-Type: text\/(plain|html); charset=utf-8\r$/gm) ?? [];
  return contentTypes.map((line) => (line.includes('html') ? 'html' : 'text')).join('+');
}

describe('randomMail', () => {
  const mails: Buffer[] = [];
  const parsed: ParsedMail[] = [];

  before(async () => {
    for (const seed of SEEDS) {
      mails.push(await randomMail(seed));
      parsed.push(await simpleParser(mails[seed]));
    }
  });

  test('gives identical bytes for the same seed', async () => {
    for (const seed of SEEDS.slice(0, 20)) {
      assert.ok((await randomMail(seed)).equals(mails[seed]), `seed ${seed}`);
    }
  });

  test('varies subjects, senders and languages across seeds', () => {
    const subjects = parsed.map((mail) => mail.subject ?? '');
    assert.ok(new Set(subjects).size >= 40, `only ${new Set(subjects).size} distinct subjects`);
    assert.ok(new Set(parsed.map((mail) => mail.from?.value[0].address)).size >= 15);
    assert.ok(subjects.some((subject) => /\p{Script=Hangul}/u.test(subject)));
    assert.ok(subjects.some((subject) => /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(subject)));
    assert.ok(subjects.some((subject) => /^[\x20-\x7e]+$/.test(subject)));
  });

  test('writes some mails as text and html, some html-only and some text-only', () => {
    const formats = new Set(mails.map(bodyFormat));
    assert.deepEqual([...formats].sort(), ['html', 'text', 'text+html']);
  });

  test('sometimes attaches a file, always under 50 KB', () => {
    const attachments = parsed.flatMap((mail) => mail.attachments);
    assert.ok(attachments.length >= 10, `only ${attachments.length} attachments`);
    assert.ok(parsed.some((mail) => mail.attachments.length === 0));
    for (const attachment of attachments) assert.ok(attachment.size < 50_000, `${attachment.filename} is ${attachment.size} bytes`);
  });

  test('dates each mail within the two years before RANDOM_MAIL_LATEST', () => {
    const earliest = RANDOM_MAIL_LATEST.getTime() - RANDOM_MAIL_SPAN_SECONDS * 1000;
    for (const mail of parsed) {
      const time = mail.date?.getTime() ?? NaN;
      assert.ok(time >= earliest && time <= RANDOM_MAIL_LATEST.getTime(), `${mail.date?.toISOString()}`);
    }
  });

  test('produces well-formed CRLF messages with a Message-ID', () => {
    for (const seed of SEEDS) {
      assert.ok(hasOnlyCrlfLineBreaks(mails[seed]), `seed ${seed}`);
      assert.match(headerValue(mails[seed], 'Message-ID') ?? '', new RegExp(`^<random-${seed}\\.[0-9a-f]{24}@`));
    }
  });

  test('takes what the envelope gives and keeps the other draws of the seed', async () => {
    const envelope = {
      from: { name: 'Given Sender', address: 'sender@letterbox.test' },
      to: [{ name: '받는 사람', address: 'reader@letterbox.test' }],
      date: new Date('2025-06-01T12:00:00Z'),
      messageId: '<given@letterbox.test>',
    };
    for (const seed of SEEDS.slice(0, 10)) {
      const mail = await simpleParser(await randomMail(seed, envelope));
      assert.equal(mail.from?.value[0].address, 'sender@letterbox.test');
      assert.deepEqual(
        [mail.to].flat().flatMap((to) => to?.value.map((address) => address.address)),
        ['reader@letterbox.test'],
      );
      assert.equal(mail.date?.getTime(), envelope.date.getTime());
      assert.equal(mail.messageId, '<given@letterbox.test>');
      assert.equal(mail.attachments.length, parsed[seed].attachments.length);
    }
    const given = await simpleParser(await randomMail(3, { subject: 'Given subject' }));
    assert.equal(given.subject, 'Given subject');
  });
});
