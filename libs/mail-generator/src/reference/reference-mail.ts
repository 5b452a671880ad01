import { composeMail } from '../compose-mail';
import { letterHtml, letterText } from '../letter-layout';
import type { MailEnvelope } from '../mail-envelope';
import { referenceAttachments } from './reference-attachments';
import { referenceLetter } from './reference-letters';
import type { ReferenceSize } from './reference-size';

/** Used when the envelope has no date, so that no clock time leaks into the bytes. */
export const REFERENCE_DATE = new Date('2026-03-02T09:30:00+09:00');

/**
 * A complete CRLF message in one of three sizes: small (~4 KB, text and html),
 * medium (~712 KB, an inline image and two attachments), large (~22 MB, a 16 MiB attachment).
 * The subject defaults to Korean, Japanese and emoji text; give display names in those
 * scripts in the envelope to get RFC 2047 encoded address headers as well.
 */
export function referenceMail(size: ReferenceSize, envelope: MailEnvelope): Promise<Buffer> {
  const letter = referenceLetter(size);
  return composeMail(
    `reference-${size}`,
    { ...envelope, subject: envelope.subject ?? letter.subject, date: envelope.date ?? REFERENCE_DATE },
    { text: letterText(letter), html: letterHtml(letter), attachments: referenceAttachments(size) },
  );
}
