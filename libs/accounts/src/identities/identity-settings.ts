import type { Pool } from 'pg';
import { z } from 'zod';
import { namedStatement } from '@letterbox/db';
import { sanitizeMailHtml } from '@letterbox/mime';
import { storableInput } from '../storable-input';

/** One of the user's own addresses as they send from it: the name it shows and its signature. */
export const identitySchema = z
  .object({
    address: z.string(),
    /** The user's primary address (their sign-in), else an alias. */
    primary: z.boolean(),
    /** The name mail from it shows: its own, else the user's. */
    displayName: z.string(),
    signatureText: z.string().nullable(),
    /** Sanitized as mail is. */
    signatureHtml: z.string().nullable(),
  })
  .meta({ id: 'Identity' });
export type Identity = z.infer<typeof identitySchema>;

export const identityListSchema = z.object({ items: z.array(identitySchema) }).meta({ id: 'IdentityList' });

/** What a user may change of one of their identities; null puts back the default (the user's name, no signature). */
export const identityChangesSchema = z
  .object({
    displayName: storableInput(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')).nullable().optional(),
    signatureText: storableInput(z.string().max(5_000, 'must be at most 5,000 characters')).nullable().optional(),
    signatureHtml: storableInput(z.string().max(20_000, 'must be at most 20,000 characters')).nullable().optional(),
  })
  .strict();
export type IdentityChanges = z.infer<typeof identityChangesSchema>;

export class IdentityNotFoundError extends Error {
  constructor(readonly address: string) {
    super(`${address} is not one of your addresses`);
  }
}

const LIST = namedStatement(
  'identities-list',
  `SELECT a.address, a.kind = 'primary' AS primary, COALESCE(a.display_name, u.display_name) AS display_name, a.signature_text, a.signature_html
     FROM addresses a JOIN users u ON u.id = a.user_id
    WHERE a.user_id = $1 AND a.kind IN ('primary', 'alias')
    ORDER BY a.kind, a.address`,
);
// Each field given is set, one left out stays: $3 to $5 are the values, $6 to $8 whether each was given.
const UPDATE = namedStatement(
  'identities-update',
  `UPDATE addresses SET
     display_name = CASE WHEN $6 THEN $3 ELSE display_name END,
     signature_text = CASE WHEN $7 THEN $4 ELSE signature_text END,
     signature_html = CASE WHEN $8 THEN $5 ELSE signature_html END
   WHERE user_id = $1 AND address = lower($2) AND kind IN ('primary', 'alias')`,
);

/** The user's identities: each of their own addresses with the name it shows and its signature, which compose puts in. */
export class IdentitySettings {
  constructor(private readonly sql: Pool) {}

  async list(userId: number): Promise<Identity[]> {
    const { rows } = await this.sql.query<{
      address: string;
      primary: boolean;
      display_name: string;
      signature_text: string | null;
      signature_html: string | null;
    }>({ ...LIST, values: [userId] });
    return rows.map((row) => ({
      address: row.address,
      primary: row.primary,
      displayName: row.display_name,
      signatureText: row.signature_text,
      signatureHtml: row.signature_html,
    }));
  }

  async change(userId: number, address: string, changes: IdentityChanges): Promise<Identity> {
    const html = changes.signatureHtml ? sanitizeMailHtml(changes.signatureHtml) : (changes.signatureHtml ?? null);
    const { rowCount } = await this.sql.query({
      ...UPDATE,
      values: [
        userId,
        address,
        changes.displayName ?? null,
        changes.signatureText || null,
        html || null,
        changes.displayName !== undefined,
        changes.signatureText !== undefined,
        changes.signatureHtml !== undefined,
      ],
    });
    if (!rowCount) throw new IdentityNotFoundError(address);
    const changed = (await this.list(userId)).find((identity) => identity.address === address.toLowerCase());
    if (!changed) throw new IdentityNotFoundError(address);
    return changed;
  }
}
