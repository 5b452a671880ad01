import { z } from 'zod';

/** How far a change over a filter is (`GET /v2/mails/bulk/:id`, and the 202 that starts one). */
export const bulkChangeSchema = z
  .object({
    id: z.int(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    /** Mails changed so far. */
    done: z.int(),
    /** About how many mails it takes, when the mailbox counters tell (a folder's unread mail, say). */
    total: z.int().optional(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
    /** Why it stopped, when it failed (the folder it moved mail to was deleted, say). */
    error: z.string().optional(),
  })
  .meta({ id: 'BulkChange' });

export type BulkChangeView = z.infer<typeof bulkChangeSchema>;
