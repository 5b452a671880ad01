import { z } from 'zod';
import { namedStatement, type UserReads } from '@letterbox/db';

export const contactSuggestionSchema = z
  .object({ address: z.string(), name: z.string(), sentCount: z.int(), receivedCount: z.int(), lastAt: z.iso.datetime() })
  .meta({ id: 'Contact' });
export type ContactSuggestion = z.infer<typeof contactSuggestionSchema>;

export const contactListSchema = z.object({ items: z.array(contactSuggestionSchema) }).meta({ id: 'ContactList' });

const SUGGEST = namedStatement(
  'contacts-suggest',
  `SELECT c.address, c.name, c.sent_count, c.received_count, c.last_at FROM contacts c
    WHERE c.user_id = $1 AND c.address <> (SELECT email FROM users WHERE id = $1)
      AND (c.address LIKE $2 OR lower(c.name) LIKE $2 OR lower(c.name) LIKE '% ' || $2)
    ORDER BY (3 * c.sent_count + c.received_count)
             * power(0.5, extract(epoch FROM now() - c.last_at) / (30 * 86400)) DESC, c.address
    LIMIT $3`,
);

/**
 * Recipient autocomplete: the people a user wrote to or heard from (kept by a trigger on
 * mails), whose address or a word of whose name starts with what was typed, best first.
 * Written-to counts three times received-from, and a contact's weight halves with every
 * month since the last mail, so whom one writes to now comes before old newsletters.
 */
export class ContactQueries {
  constructor(private readonly reads: UserReads) {}

  async suggest(userId: number, typed: string, limit: number): Promise<ContactSuggestion[]> {
    const prefix = `${typed.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const sql = await this.reads.poolFor(userId);
    const { rows } = await sql.query<{ address: string; name: string; sent_count: number; received_count: number; last_at: Date }>({
      ...SUGGEST,
      values: [userId, prefix, limit],
    });
    return rows.map((row) => ({
      address: row.address,
      name: row.name,
      sentCount: row.sent_count,
      receivedCount: row.received_count,
      lastAt: row.last_at.toISOString(),
    }));
  }
}
