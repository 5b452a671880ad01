import type { MailDetail } from '../api/types';

type Attachment = MailDetail['attachments'][number];

/** The parts a reader lists as files (as the read API's attachments.zip holds them): an inline part with a Content-ID is a picture of the HTML body. */
export const listedFiles = (attachments: Attachment[]) => attachments.filter((attachment) => attachment.disposition === 'attachment' || !attachment.contentId);
