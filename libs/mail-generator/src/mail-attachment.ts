/** One attachment or inline part exactly as it is embedded, so a test can compare what a reader extracts. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  disposition: 'attachment' | 'inline';
  /** Without angle brackets; the html refers to it as `cid:<contentId>`. */
  contentId?: string;
}
