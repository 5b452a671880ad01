import { namedStatement, type Database } from '@letterbox/db';
import type { MailContentReader, MailQueries } from '@letterbox/mail';
import { summarizeHeaders } from '@letterbox/mime';
import { forwardedParts } from '../submit/answer-original';
import { newAttachmentId, type DraftContent } from './draft-content';

const ADOPT = namedStatement(
  'draft-adopt-appended',
  `INSERT INTO drafts (mail_id, user_id, content)
   SELECT m.id, m.user_id, $3::jsonb FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id
    WHERE m.id = $1 AND m.user_id = $2 AND b.role = 'drafts' AND m.deleted_at IS NULL
   ON CONFLICT (mail_id) DO NOTHING`,
);

/**
 * A message a mail client put in Drafts (IMAP APPEND) made a server draft, as the webmail's are: its
 * recipients, subject and bodies as the editor holds them, its attachments and inline images by reference
 * to the stored message, as a forward's (nothing copied). The mail itself stays as the client wrote it
 * until the draft is saved again. Its Bcc is kept (the draft is the user's own: whom they will send it to); a
 * From that is not one of the user's addresses is left out: the editor shows the user's own address.
 */
export class AppendedDrafts {
  constructor(
    private readonly db: Database,
    private readonly mails: MailQueries,
    private readonly content: MailContentReader,
  ) {}

  async adopt(userId: number, mailId: number, ownAddresses: readonly string[]): Promise<void> {
    const mail = await this.mails.record(userId, mailId);
    const contentIds = new Map(mail.attachments.map((part) => [part.partId, part.contentId]));
    const shown = await this.content.read(mail, (partId) => `cid:${contentIds.get(partId) ?? ''}`);
    const from = mail.from.address.toLowerCase();
    const content: DraftContent = {
      ...(ownAddresses.includes(from) ? { from } : {}),
      to: mail.to.map((address) => address.address),
      cc: mail.cc.map((address) => address.address),
      bcc: summarizeHeaders(shown.headers).bcc.map((address) => address.address),
      subject: mail.subject,
      ...(shown.text ? { text: editorText(shown.text) } : {}),
      ...(shown.html ? { html: shown.html } : {}),
      important: false,
      requestReadReceipt: false,
      attachments: forwardedParts(mail).map((attachment) => ({ ...attachment, id: newAttachmentId() })),
    };
    await this.db.sql.query({ ...ADOPT, values: [mailId, userId, JSON.stringify(content)] });
  }
}

/**
 * A text body as the editor holds what the user typed: lines ended by `\n` (a textarea's), without the line ending
 * that ends the message's last line (the MIME body's, not the user's). Blank lines the user left after their text
 * are kept.
 */
export function editorText(body: string): string {
  return body.replace(/\r\n/g, '\n').replace(/\n$/, '');
}
