import type { AnswerMode, SendAttachment, SendRequest } from './send-request';

/** A draft's attachment: a file uploaded once (or a forwarded part), kept across saves under its id. */
export interface DraftAttachment extends SendAttachment {
  id: string;
}

/**
 * What a draft's editor holds, stored as `drafts.content`: what a send takes, less how it
 * goes out; `answering` puts the draft in the conversation of the mail it answers.
 */
export interface DraftContent extends Pick<SendRequest, 'to' | 'cc' | 'bcc' | 'subject' | 'text' | 'html' | 'important' | 'requestReadReceipt' | 'answering'> {
  attachments: DraftAttachment[];
}

/** A save: the fields given replace the draft's; new files are added; attachments named in `removeAttachments` go. */
export interface DraftChanges {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  text?: string;
  html?: string;
  important?: boolean;
  requestReadReceipt?: boolean;
  newAttachments?: SendAttachment[];
  removeAttachments?: string[];
  /** Only when the draft is made: the mail it answers or forwards. */
  original?: { mailId: number; mode: AnswerMode };
}

/** What the API shows of a draft; `id` is its mail's id. */
export interface DraftView {
  id: number;
  version: number;
  updatedAt: string;
  threadId: number;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  important: boolean;
  requestReadReceipt: boolean;
  attachments: Array<{ id: string; filename: string; contentType: string; size: number }>;
  answering: { mailId: number; mode: AnswerMode } | null;
}
