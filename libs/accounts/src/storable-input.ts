import type { z } from 'zod';

/**
 * Text a user gives to keep, refused as bad input when PostgreSQL could not store it as given,
 * never a failed write: no NUL (text and jsonb hold none), and no lone UTF-16 surrogate (not
 * Unicode: jsonb refuses it, and UTF-8 cannot carry it, so it is the one text that does not
 * come back the same from UTF-8).
 */
export const storableInput = (text: z.ZodString) =>
  text.refine(
    (value) => !value.includes('\u0000') && Buffer.from(value, 'utf8').toString('utf8') === value,
    'must not contain NUL characters or lone UTF-16 surrogates',
  );
