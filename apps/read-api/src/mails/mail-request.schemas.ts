import { z } from 'zod';
import { integerParam } from '@letterbox/http';
import { decodeCursor } from '@letterbox/mail';

const booleanParam = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

const instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z' })
  .transform((value) => new Date(value));

const EXPANSIONS = ['attachments', 'receipt_confirm'] as const;
type Expansion = (typeof EXPANSIONS)[number];
const isExpansion = (value: string): value is Expansion => (EXPANSIONS as readonly string[]).includes(value);

/** `with` may be given once or repeated; either way every value must be a known expansion. */
const expansions = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z
    .array(z.string(), { message: 'must be attachments or receipt_confirm' })
    .refine((values) => values.every(isExpansion), 'must be attachments or receipt_confirm')
    .transform((values) => [...new Set(values)] as Expansion[]),
);

const MAX_INT4 = 2_147_483_647;

export const MAX_PAGE_SIZE = 100;

export const mailListQuery = z
  .object({
    mailboxId: integerParam(1, MAX_INT4).optional(),
    seen: booleanParam.optional(),
    flagged: booleanParam.optional(),
    hasAttachments: booleanParam.optional(),
    from: z.string().min(1).max(320).optional(),
    subject: z.string().min(1).max(500).optional(),
    since: instant.optional(),
    until: instant.optional(),
    sort: z.enum(['-receivedAt', 'receivedAt'], { message: 'must be -receivedAt (newest first) or receivedAt' }).default('-receivedAt'),
    limit: integerParam(1, MAX_PAGE_SIZE).default(50),
    cursor: z
      .string()
      .max(200)
      .transform((value, context) => {
        const cursor = decodeCursor(value);
        if (!cursor) context.addIssue({ code: 'custom', message: 'is not a cursor this API gave' });
        return cursor;
      })
      .optional(),
    with: expansions.optional(),
  })
  .strict();

export type MailListQueryParams = z.infer<typeof mailListQuery>;

export const mailIdParams = z.object({
  id: integerParam(1, Number.MAX_SAFE_INTEGER),
});

export const attachmentParams = mailIdParams.extend({
  partId: z.string().regex(/^\d{1,4}(\.\d{1,4}){0,40}$/, 'must be a MIME part number such as 2 or 1.2'),
});

export const mailPatchBody = z
  .object({
    seen: z.boolean().optional(),
    flagged: z.boolean().optional(),
    important: z.boolean().optional(),
    mailboxId: z.number().int().positive().max(MAX_INT4).optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of seen, flagged, important, mailboxId',
  });
