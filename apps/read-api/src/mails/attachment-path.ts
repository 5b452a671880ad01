/** The route of one attachment's download (MailDownloadsController). */
export const attachmentPath = (mailId: number, partId: string) => `/v2/mails/${mailId}/attachments/${partId}`;
