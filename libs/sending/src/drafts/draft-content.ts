import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ANSWER_MODES, type AnswerMode, type SendAttachment, type SendRequest } from '../submit/send-request';

/** A draft's attachment: a file uploaded once (or a forwarded part), kept across saves under its id. */
export interface DraftAttachment extends SendAttachment {
  id: string;
}

/**
 * What a draft's editor holds, stored as `drafts.content`: what a send takes, less how it
 * goes out; `answering` puts the draft in the conversation of the mail it answers.
 */
export interface DraftContent extends Pick<
  SendRequest,
  'from' | 'to' | 'cc' | 'bcc' | 'subject' | 'text' | 'html' | 'important' | 'requestReadReceipt' | 'answering'
> {
  attachments: DraftAttachment[];
}

/** A save: the fields given replace the draft's; new files are added; attachments named in `removeAttachments` go. */
export interface DraftChanges {
  /** One of the sender's own addresses (primary or alias). */
  from?: string;
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

/** What the API shows of a draft; `id` is its mail's id, `version` what the next save must name. */
export const draftViewSchema = z
  .object({
    id: z.int(),
    version: z.int(),
    updatedAt: z.iso.datetime(),
    threadId: z.int(),
    from: z.string().nullable().describe('The address it will go out from, one of the sender’s own; null: their primary address.'),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    subject: z.string(),
    text: z.string().nullable(),
    html: z.string().nullable(),
    important: z.boolean(),
    requestReadReceipt: z.boolean(),
    attachments: z.array(z.object({ id: z.string(), filename: z.string(), contentType: z.string(), size: z.int() })),
    answering: z.object({ mailId: z.int(), mode: z.enum(ANSWER_MODES) }).nullable(),
  })
  .meta({ id: 'Draft' });
export type DraftView = z.infer<typeof draftViewSchema>;

/** The id a draft's attachment is kept under across saves. */
export function newAttachmentId(): string {
  return randomUUID().slice(0, 12);
}
