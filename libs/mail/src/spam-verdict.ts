import { z } from 'zod';

/**
 * What rspamd made of an incoming mail, stored with it (`mails.spam`) and answered on its
 * detail: its score against the score rspamd rejects at, the action that score means, and the
 * symbols that made it (each rule that matched, with its weight). The one definition of the
 * wire type (OpenAPI `SpamVerdict`).
 */
export const spamVerdictSchema = z
  .object({
    score: z.number(),
    requiredScore: z.number(),
    /** rspamd's action: `no action`, `greylist`, `add header`, `rewrite subject`, `soft reject` or `reject`. */
    action: z.string(),
    symbols: z.array(z.object({ name: z.string(), score: z.number() })),
  })
  .meta({ id: 'SpamVerdict' });
export type SpamVerdict = z.infer<typeof spamVerdictSchema>;
