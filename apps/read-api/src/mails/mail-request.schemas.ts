import { z } from 'zod';
import { integerParam } from '@letterbox/http';
import { decodeCursor, parseSearchQuery, type MailListFilter } from '@letterbox/mail';

const booleanParam = z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).transform((value) => value === 'true' || value === '1');

const instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z' }).transform((value) => new Date(value));

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

/**
 * Text to look for in mail: PostgreSQL's text cannot hold NUL, so a NUL in it would fail
 * the query (a 500) instead of telling the client.
 */
export const searchText = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');

export const MAX_PAGE_SIZE = 100;

export const mailListQuery = z
  .object({
    mailboxId: integerParam(1, MAX_INT4).optional(),
    seen: booleanParam.optional(),
    flagged: booleanParam.optional(),
    hasAttachments: booleanParam.optional(),
    from: searchText(320).optional(),
    subject: searchText(500).optional(),
    since: instant.optional(),
    until: instant.optional(),
    /** A search: words, "phrases", -excluded words and operators (parseSearchQuery). */
    q: searchText(500).optional(),
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

/** The conversation list takes the mail list's filters and paging; it is always newest first. */
export const threadListQuery = mailListQuery.omit({ sort: true, with: true });

export function listFilterOf(query: z.infer<typeof threadListQuery>): MailListFilter {
  return {
    mailboxId: query.mailboxId,
    seen: query.seen,
    flagged: query.flagged,
    hasAttachments: query.hasAttachments,
    from: query.from,
    subject: query.subject,
    since: query.since,
    until: query.until,
    search: query.q === undefined ? undefined : parseSearchQuery(query.q),
  };
}

export const threadIdParams = z.object({
  id: integerParam(1, Number.MAX_SAFE_INTEGER),
});

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

export const bulkChangeParams = z.object({
  id: integerParam(1, Number.MAX_SAFE_INTEGER),
});

const MAX_BULK_IDS = 1000;
const bulkIds = z
  .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
  .min(1)
  .max(MAX_BULK_IDS, `must list at most ${MAX_BULK_IDS}; use filter for more`);

/** The mail list's filters, as JSON. */
const bulkFilter = z
  .object({
    mailboxId: z.number().int().positive().max(MAX_INT4).optional(),
    seen: z.boolean().optional(),
    flagged: z.boolean().optional(),
    hasAttachments: z.boolean().optional(),
    from: searchText(320).optional(),
    subject: searchText(500).optional(),
    since: instant.optional(),
    until: instant.optional(),
  })
  .strict();

/**
 * One change to many mails: which (`ids`, `threadIds` or a `filter`, exactly one) and what
 * (flags and a move, or `delete`).
 */
export const bulkChangeBody = z
  .object({
    ids: bulkIds.optional(),
    threadIds: bulkIds.optional(),
    filter: bulkFilter.optional(),
    seen: z.boolean().optional(),
    flagged: z.boolean().optional(),
    important: z.boolean().optional(),
    mailboxId: z.number().int().positive().max(MAX_INT4).optional(),
    delete: z.literal(true, { message: 'must be true when given' }).optional(),
  })
  .strict()
  .superRefine((body, context) => {
    const selections = [body.ids, body.threadIds, body.filter].filter((selection) => selection !== undefined).length;
    if (selections !== 1) context.addIssue({ code: 'custom', message: 'give exactly one of ids, threadIds, filter' });
    const changes = [body.seen, body.flagged, body.important, body.mailboxId].some((value) => value !== undefined);
    if (changes === (body.delete === true))
      context.addIssue({ code: 'custom', message: 'give delete, or at least one of seen, flagged, important, mailboxId' });
  });

const reportedIds = z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(MAX_BULK_IDS, `must list at most ${MAX_BULK_IDS}`);

/** Listed mails or whole conversations (`ids` or `threadIds`, exactly one) reported as spam, or as not spam. */
export const spamReportBody = z
  .object({
    ids: reportedIds.optional(),
    threadIds: reportedIds.optional(),
  })
  .strict()
  .refine((body) => (body.ids === undefined) !== (body.threadIds === undefined), { message: 'give exactly one of ids, threadIds' });
