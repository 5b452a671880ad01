import { composeMail } from '../compose-mail';
import { letterHtml, letterText } from '../letter-layout';
import type { Address, MailEnvelope } from '../mail-envelope';
import { SeededRandom } from '../seeded-random';
import { MAIL_TEMPLATES } from './mail-templates';
import { RECIPIENTS } from './sample-people';
import { SMALL_ATTACHMENTS } from './small-attachments';

/** Dates fall in the two years before this fixed moment, not before "now", so a seed always gives the same mail. */
export const RANDOM_MAIL_LATEST = new Date('2026-11-01T00:00:00Z');
export const RANDOM_MAIL_SPAN_SECONDS = 2 * 365 * 86_400;

type BodyFormat = 'text+html' | 'html' | 'text';

/**
 * A small, realistic mail chosen by `seed` among a few dozen English, Korean and Japanese
 * templates: sometimes html-only or text-only, sometimes with an attachment under 50 KB.
 * Whatever the envelope gives replaces the drawn value; the rest of the mail stays the same.
 */
export function randomMail(seed: number, envelope: Partial<MailEnvelope> = {}): Promise<Buffer> {
  const random = new SeededRandom(seed);
  // Everything is drawn whether or not the envelope overrides it, so that overriding,
  // say, the sender does not shift the draws behind it and change the whole mail.
  const template = random.pick(MAIL_TEMPLATES);
  const drawnFrom = random.pick(template.senders);
  const drawnTo = random.pick(RECIPIENTS);
  const drawnCc = random.chance(0.15) ? [random.pick(RECIPIENTS.filter((person) => person !== drawnTo))] : undefined;
  const drawnDate = new Date(RANDOM_MAIL_LATEST.getTime() - random.between(0, RANDOM_MAIL_SPAN_SECONDS) * 1000);
  const format = drawBodyFormat(random);
  const withAttachment = random.chance(0.3);

  const from = envelope.from ?? drawnFrom;
  const to = envelope.to ?? [drawnTo];
  const date = envelope.date ?? drawnDate;
  const written = template.write({
    random,
    senderName: from.name,
    recipientName: greetingName(to[0]),
    sentAt: date,
  });
  const letter = { language: template.language, ...written };
  return composeMail(
    `random-${seed}`,
    {
      from,
      to,
      cc: envelope.cc ?? drawnCc,
      subject: envelope.subject ?? written.subject,
      date,
      messageId: envelope.messageId,
    },
    {
      text: format === 'html' ? undefined : letterText(letter),
      html: format === 'text' ? undefined : letterHtml(letter),
      attachments: withAttachment ? [random.pick(SMALL_ATTACHMENTS)(random)] : [],
    },
  );
}

function drawBodyFormat(random: SeededRandom): BodyFormat {
  const roll = random.float();
  if (roll < 0.55) return 'text+html';
  return roll < 0.8 ? 'html' : 'text';
}

/** The first word: a given name in English, the family name a Japanese greeting uses, a whole Korean name. */
function greetingName(recipient: Address | undefined): string {
  if (!recipient) return '';
  return (recipient.name || recipient.address.split('@')[0]).split(' ')[0];
}
