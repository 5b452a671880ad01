import MailComposer from 'nodemailer/lib/mail-composer';
import type { NoticeLanguage } from '../notice-language';
import { noticeTexts, type BounceNoticeFacts } from './bounce-notice-texts';

export interface BounceNotice extends BounceNoticeFacts {
  /** The sender's address: the notice is for them. */
  to: string;
  /** The sent mail's Message-ID: the notice answers it, so it joins the sent mail's thread. */
  inReplyTo: string;
  /** Makes the notice's own Message-ID: the same bounce always makes the same notice. */
  key: string;
  /** The sender's domain: the notice comes from its mailer-daemon. */
  domain: string;
  language: NoticeLanguage;
}

/** A notice as a message, ready to be stored in the sender's Inbox like any mail. */
export async function composeBounceNotice(notice: BounceNotice): Promise<Buffer> {
  const texts = noticeTexts(notice.language);
  const composer = new MailComposer({
    from: { name: texts.senderName, address: `mailer-daemon@${notice.domain}` },
    to: notice.to,
    subject: texts.subject(notice),
    text: texts.body(notice),
    messageId: `<bounce-${notice.key}@${notice.domain}>`,
    inReplyTo: notice.inReplyTo,
    references: [notice.inReplyTo],
    headers: { 'Auto-Submitted': 'auto-replied' },
  });
  return composer.compile().build();
}
