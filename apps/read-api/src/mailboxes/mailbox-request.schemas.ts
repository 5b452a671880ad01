import { z } from 'zod';
import { integerParam } from '@letterbox/http';

export const mailboxIdParams = z.object({ id: integerParam(1, 2_147_483_647) });

/** Characters that reorder the text around them: a name holding one can show as another's. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** A character that shows: not space, not a format character (zero-width ones), not a mark alone. */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{M}\p{Cc}]/u;

/**
 * What a person would type as a folder name: no control characters, no space at either end, something
 * visible, and no bidirectional overrides. Names are unique per user whatever their case (migration
 * 20261203000003_folder_names_folded).
 */
const mailboxName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters')
  .refine((name) => !BIDI_CONTROLS.test(name), 'must not contain bidirectional control characters')
  .refine((name) => VISIBLE.test(name), 'must contain a visible character');

export const mailboxBody = z.object({ name: mailboxName }).strict();

export const unlockBody = z.object({ password: z.string().min(1).max(1024) }).strict();
