import { z } from 'zod';
import { addressInput as address, displayNameInput as displayName, domainNameInput, passwordInput as password, plainTextInput } from '@letterbox/admin';
import { integerParam } from '@letterbox/http';

const MAX_ID = 2_147_483_647;
const id = z.int().min(1).max(MAX_ID);

const quotaBytes = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const role = z.enum(['user', 'admin']);
const ids = z.array(id).max(1000);

export const idParams = z.object({ id: integerParam(1, MAX_ID) });
export const aliasParams = z.object({ id: integerParam(1, MAX_ID), address: plainTextInput(320).pipe(z.string().min(1)) });

export const userListQuery = z
  .object({
    limit: integerParam(1, 200).default(50),
    cursor: z
      .string()
      .max(1000)
      .regex(/^[A-Za-z0-9_-]*$/, 'must be a nextCursor of a previous page')
      .optional(),
    q: z.string().trim().pipe(plainTextInput(320)).optional(),
  })
  .strict();

export const newUserBody = z.object({ email: address, displayName, password, role: role.optional(), quotaBytes: quotaBytes.nullable().optional() }).strict();

export const userChangesBody = z
  .object({
    displayName: displayName.optional(),
    role: role.optional(),
    /** null: back to the deployment's default. */
    quotaBytes: quotaBytes.nullable().optional(),
    state: z.enum(['active', 'disabled']).optional(),
    /** A reset: the user must choose their own at the next sign-in, and every token of theirs ends. */
    password: password.optional(),
  })
  .strict();

export const aliasBody = z.object({ address }).strict();

export const domainBody = z.object({ name: domainNameInput }).strict();

export const domainParams = z.object({ domain: domainNameInput });
export const dkimKeyParams = z.object({
  domain: domainNameInput,
  selector: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/i, 'must be a DKIM selector, a DNS label'),
});

const groupName = displayName;

export const newGroupBody = z.object({ name: groupName, address, userIds: ids.default([]), groupIds: ids.default([]) }).strict();

export const groupChangesBody = z.object({ name: groupName.optional(), userIds: ids.optional(), groupIds: ids.optional() }).strict();

export const officeChangesBody = z.object({ requireTotp: z.boolean() }).strict();

/** Where the previous page of a list newest first ended (its nextCursor): a row id. */
const pageCursor = z
  .string()
  .regex(/^[1-9]\d{0,17}$/, 'must be a nextCursor of a previous page')
  .optional();

export const suppressionListQuery = z
  .object({
    limit: integerParam(1, 200).default(50),
    cursor: pageCursor,
  })
  .strict();

export const auditQuery = z
  .object({
    limit: integerParam(1, 200).default(50),
    cursor: pageCursor,
    action: plainTextInput(100).optional(),
    actor: plainTextInput(320).optional(),
    since: z.iso
      .datetime({ offset: true })
      .transform((value) => new Date(value))
      .optional(),
    until: z.iso
      .datetime({ offset: true })
      .transform((value) => new Date(value))
      .optional(),
  })
  .strict();
