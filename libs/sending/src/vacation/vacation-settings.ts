import type { Pool } from 'pg';
import { z } from 'zod';
import { namedStatement } from '@letterbox/db';
import { storableText } from '@letterbox/mail';
import { sanitizeMailHtml } from '@letterbox/mime';
import { noticeLanguageFor, type NoticeLanguage } from '../notice-language';
import { vacationTexts } from './vacation-texts';

/** Text PostgreSQL stores as it is given: no NUL, no lone surrogate. */
const storable = (text: z.ZodString) => text.refine((value) => storableText(value) === value, 'must not contain NUL characters or lone UTF-16 surrogates');
/** A time PostgreSQL takes: ISO 8601, in a year it knows. */
const time = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 time' })
  .refine((value) => Math.abs(new Date(value).getUTCFullYear() - 5000) <= 4000, 'must be a time between the years 1000 and 9000');

/** The out-of-office reply as the API takes it. */
export const vacationRequestSchema = z
  .object({
    enabled: z.boolean(),
    /** When replies start and stop; absent or null: from now on, until turned off. */
    from: time.nullable().optional(),
    until: time.nullable().optional(),
    subject: storable(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')),
    text: storable(z.string().min(1, 'must not be empty').max(10_000, 'must be at most 10,000 characters')),
    html: storable(z.string().max(50_000, 'must be at most 50,000 characters')).nullable().optional(),
  })
  .strict()
  .refine((vacation) => !vacation.from || !vacation.until || vacation.from < vacation.until, { message: 'must be after from', path: ['until'] });

/** The same, as the API answers it. */
export const vacationSchema = vacationRequestSchema.meta({ id: 'Vacation' });
export type Vacation = z.infer<typeof vacationSchema>;

/** What a user who never set one has, in their language. */
function unsetVacation(language: NoticeLanguage): Vacation {
  const texts = vacationTexts(language);
  return { enabled: false, from: null, until: null, subject: texts.unsetSubject, text: texts.unsetText, html: null };
}

const GET = namedStatement(
  'vacation-get',
  `SELECT u.locale, v.user_id IS NOT NULL AS stored, v.enabled, v.starts_at, v.ends_at, v.subject, v.text, v.html
     FROM users u LEFT JOIN vacation_settings v ON v.user_id = u.id WHERE u.id = $1`,
);
const PUT = namedStatement(
  'vacation-put',
  `INSERT INTO vacation_settings (user_id, enabled, starts_at, ends_at, subject, text, html) VALUES ($1, $2, $3, $4, $5, $6, $7)
   ON CONFLICT (user_id) DO UPDATE SET enabled = EXCLUDED.enabled, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at,
     subject = EXCLUDED.subject, text = EXCLUDED.text, html = EXCLUDED.html, updated_at = now()`,
);
// The office comes with it: a reply goes out as its user, in their office.
const ACTIVE = namedStatement(
  'vacation-active',
  `SELECT v.user_id, u.office_id, v.subject, v.text, v.html FROM vacation_settings v JOIN users u ON u.id = v.user_id
    WHERE v.user_id = ANY($1::int[]) AND v.enabled AND (v.starts_at IS NULL OR v.starts_at <= now()) AND (v.ends_at IS NULL OR v.ends_at > now())`,
);

interface VacationRow {
  locale: string | null;
  stored: boolean;
  enabled: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
  subject: string;
  text: string;
  html: string | null;
}

/** A reply that is on now, for one of the users asked about: from their settings, or from their Sieve script's `vacation`. */
export interface ActiveVacation {
  userId: number;
  officeId: number;
  subject: string;
  text: string;
  html: string | null;
  /** A sender is answered once in this many days at most. */
  days: number;
  /** The address it goes out from, when one of the user's own; their primary otherwise. */
  from?: string;
  /** Addresses of the user's that Letterbox does not know as theirs (a script's `:addresses`). */
  moreAddresses?: string[];
}

/** The days between two replies to one sender when the user does not say (RFC 5230's default). */
export const DEFAULT_REPLY_DAYS = 7;

/** Each user's out-of-office reply: its text, and whether and when it is on. Its HTML is sanitized as it is stored. */
export class VacationSettings {
  constructor(private readonly sql: Pool) {}

  async get(userId: number): Promise<Vacation> {
    const { rows } = await this.sql.query<VacationRow>({ ...GET, values: [userId] });
    const row = rows[0];
    if (!row?.stored) return unsetVacation(noticeLanguageFor(row?.locale ?? null));
    return {
      enabled: row.enabled,
      from: row.starts_at?.toISOString() ?? null,
      until: row.ends_at?.toISOString() ?? null,
      subject: row.subject,
      text: row.text,
      html: row.html,
    };
  }

  async put(userId: number, vacation: Vacation): Promise<Vacation> {
    const html = vacation.html ? sanitizeMailHtml(vacation.html) : null;
    await this.sql.query({ ...PUT, values: [userId, vacation.enabled, vacation.from ?? null, vacation.until ?? null, vacation.subject, vacation.text, html] });
    return this.get(userId);
  }
}

/** The replies on now of those of the users who have one, in one statement. */
export async function activeVacationsOf(sql: Pool, userIds: number[]): Promise<Map<number, ActiveVacation>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql.query<{ user_id: number; office_id: number; subject: string; text: string; html: string | null }>({
    ...ACTIVE,
    values: [[...new Set(userIds)]],
  });
  return new Map(
    rows.map((row) => [
      row.user_id,
      { userId: row.user_id, officeId: row.office_id, subject: row.subject, text: row.text, html: row.html, days: DEFAULT_REPLY_DAYS },
    ]),
  );
}

const REPLIERS = namedStatement('vacation-repliers', 'SELECT id, office_id, locale FROM users WHERE id = ANY($1::int[])');

/** A user answering by script: a reply goes out as its user, in their office, and what Letterbox words of it is in their language. */
export interface Replier {
  officeId: number;
  language: NoticeLanguage;
}

/** Each of the users as a replier, in one statement. */
export async function repliersOf(sql: Pool, userIds: number[]): Promise<Map<number, Replier>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql.query<{ id: number; office_id: number; locale: string | null }>({ ...REPLIERS, values: [[...new Set(userIds)]] });
  return new Map(rows.map((row) => [row.id, { officeId: row.office_id, language: noticeLanguageFor(row.locale) }]));
}
