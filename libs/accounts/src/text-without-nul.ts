import type { z } from 'zod';

/** Text a user gives to keep: PostgreSQL's text holds no NUL, so one is refused as bad input, never a failed write. */
export const withoutNul = (text: z.ZodString) => text.refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');
