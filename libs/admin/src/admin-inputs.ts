import { z } from 'zod';

/** What the API and the command line accept from an administrator, defined once. */

/** What a person would type as a name: no control characters, no space at either end. */
export const displayNameInput = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

export const addressInput = z.email().max(320);

export const passwordInput = z.string().min(8, 'must be at least 8 characters').max(1024);

export const domainNameInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'must be a domain name such as example.com');
