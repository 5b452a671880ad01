import type { MailContentReader } from './mail-content';
import type { MailQueries } from './mail-queries';
import type { MailDetail } from '../mail-views';

/** Where an attachment of a mail is downloaded from. */
export type AttachmentUrl = (mailId: number, partId: string) => string;

/**
 * Reading one mail of the user's: headers, text, sanitized HTML and attachment metadata, read from
 * the EML's recorded byte ranges (attachment bytes are not read). Nothing of where it is stored is shown.
 */
export class MailDetailQuery {
  constructor(
    private readonly mails: MailQueries,
    private readonly content: MailContentReader,
    private readonly attachmentUrl: AttachmentUrl,
  ) {}

  async read(userId: number, mailId: number): Promise<MailDetail> {
    const mail = await this.mails.record(userId, mailId);
    const content = await this.content.read(mail, (partId) => this.attachmentUrl(mail.id, partId));
    const { storageKey: _storageKey, layout: _layout, mailboxLocked: _locked, attachments, ...summary } = mail;
    return {
      ...summary,
      ...content,
      attachments: attachments.map(({ partId, filename, contentType, disposition, contentId, size }) => ({
        partId,
        filename,
        contentType,
        disposition,
        contentId,
        size,
        url: this.attachmentUrl(mail.id, partId),
      })),
    };
  }
}
