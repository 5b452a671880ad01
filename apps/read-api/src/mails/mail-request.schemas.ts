import { z } from 'zod';
import { decodeCursor } from '@letterbox/mail';

const booleanParam = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

const instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z' })
  .transform((value) => new Date(value));

const expansion = z.enum(['attachments', 'receipt_confirm'], { message: 'must be attachments or receipt_confirm' });

export const MAX_PAGE_SIZE = 100;

export const mailListQuery = z
  .object({
    mailboxId: z.coerce.number({ message: 'must be a mailbox id' }).int().positive().max(2_147_483_647).optional(),
    seen: booleanParam.optional(),
    flagged: booleanParam.optional(),
    hasAttachments: booleanParam.optional(),
    from: z.string().min(1).max(320).optional(),
    subject: z.string().min(1).max(500).optional(),
    since: instant.optional(),
    until: instant.optional(),
    sort: z.enum(['-receivedAt', 'receivedAt'], { message: 'must be -receivedAt (newest first) or receivedAt' }).default('-receivedAt'),
    limit: z.coerce.number({ message: 'must be a number' }).int().min(1).max(MAX_PAGE_SIZE).default(50),
    cursor: z
      .string()
      .max(200)
      .transform((value, context) => {
        const cursor = decodeCursor(value);
        if (!cursor) context.addIssue({ code: 'custom', message: 'is not a cursor this API gave' });
        return cursor;
      })
      .optional(),
    with: z
      .union([expansion, z.array(expansion).max(2)])
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .optional(),
  })
  .strict();

export type MailListQueryParams = z.infer<typeof mailListQuery>;

export const mailIdParams = z.object({
  id: z.coerce.number({ message: 'must be a mail id' }).int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const attachmentParams = mailIdParams.extend({
  partId: z.string().regex(/^\d{1,4}(\.\d{1,4}){0,40}$/, 'must be a MIME part number such as 2 or 1.2'),
});

export const mailPatchBody = z
  .object({
    seen: z.boolean().optional(),
    flagged: z.boolean().optional(),
    important: z.boolean().optional(),
    mailboxId: z.number().int().positive().max(2_147_483_647).optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of seen, flagged, important, mailboxId',
  });
