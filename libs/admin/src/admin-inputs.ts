import { z } from 'zod';

/** What the API and the command line accept from an administrator, defined once. */

/** Text as PostgreSQL can keep and compare it: no control characters (NUL among them), no half of a UTF-16 pair. */
export function plainTextInput(maxLength: number) {
  return (
    z
      .string()
      .max(maxLength, `must be at most ${maxLength} characters`)
      // eslint-disable-next-line no-control-regex
      .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not contain control characters')
      .refine((text) => !/\p{Surrogate}/u.test(text), 'must be well-formed Unicode')
  );
}

/** What a person would type as a name: plain text with no space at either end. */
export const displayNameInput = z.string().trim().min(1, 'must not be empty').pipe(plainTextInput(200));

export const addressInput = z.email().max(320);

export const passwordInput = z.string().min(8, 'must be at least 8 characters').max(1024);

export const domainNameInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'must be a domain name such as example.com');
