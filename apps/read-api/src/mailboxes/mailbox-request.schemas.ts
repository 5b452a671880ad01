import { z } from 'zod';
import { integerParam } from '@letterbox/http';

export const mailboxIdParams = z.object({ id: integerParam(1, 2_147_483_647) });

/** What a person would type as a folder name: no control characters, no space at either end. */
const mailboxName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

export const mailboxBody = z.object({ name: mailboxName }).strict();

export const unlockBody = z.object({ password: z.string().min(1).max(1024) }).strict();
