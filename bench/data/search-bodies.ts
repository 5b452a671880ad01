import type { Database } from '@letterbox/db';
import { searchableText, searchDocumentSql } from '@letterbox/mail';
import { BULK_USER_EMAIL } from './bench-accounts';
import { ENGLISH_WORDS, KOREAN_WORDS, seeded, zipfWord } from './search-vocabulary';

const WORDS_PER_BODY = 40;
const CHUNK = 10_000;

/**
 * Gives the bulk user's cloned mails bodies of their own to search: forty words drawn by
 * rank (search-vocabulary), seven mails in ten in English and the rest in Korean. The
 * clones share their templates' EML, so only their search rows hold these bodies: what
 * search reads, not what the detail view shows. Mails with a search row are skipped, so
 * a second run costs one query.
 */
export async function ensureSearchBodies(db: Database): Promise<void> {
  const user = await db.prisma.user.findUniqueOrThrow({ where: { email: BULK_USER_EMAIL }, select: { id: true } });
  const started = Date.now();
  let added = 0;
  for (;;) {
    const { rows } = await db.sql.query<{ id: string; subject: string; from_address: string }>(
      `SELECT m.id, m.subject, m.from_address FROM mails m
        WHERE m.user_id = $1 AND NOT EXISTS (SELECT 1 FROM mail_search s WHERE s.mail_id = m.id)
        ORDER BY m.id LIMIT ${CHUNK}`,
      [user.id],
    );
    if (rows.length === 0) break;
    if (added === 0) console.log(`writing search bodies for the bulk user's mails (a few minutes for a million) ...`);
    const bodies = rows.map((row) => bodyOf(Number(row.id)));
    await db.sql.query(
      `INSERT INTO mail_search (mail_id, user_id, body, document)
       SELECT r.id, $1, r.body, ${searchDocumentSql('r.subject', 'r.from_address', 'r.tokens')}
         FROM unnest($2::int8[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r(id, body, tokens, subject, from_address)`,
      [user.id, rows.map((row) => row.id), bodies, bodies.map(searchableText), rows.map((row) => row.subject), rows.map((row) => row.from_address)],
    );
    added += rows.length;
  }
  if (added > 0) {
    // VACUUM, not ANALYZE alone: it empties the GIN index's pending list, which every search would
    // otherwise read whole until autovacuum gets to it (440 index pages for a rare word instead of 4).
    await db.sql.query('VACUUM ANALYZE mail_search');
    console.log(`search bodies written for ${added.toLocaleString('en')} mails in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

/** The same mail id always gets the same body. */
export function bodyOf(mailId: number): string {
  const random = seeded(mailId);
  const words = mailId % 10 < 7 ? ENGLISH_WORDS : KOREAN_WORDS;
  return Array.from({ length: WORDS_PER_BODY }, () => zipfWord(words, random)).join(' ');
}
