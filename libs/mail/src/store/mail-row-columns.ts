import type { Tables } from '@letterbox/db';

/** The SQL types that the fields of an input row are read as (jsonb_to_recordset), each with the value it is written from. */
interface InputTypes {
  text: string;
  uuid: string;
  int: number;
  int8: number;
  float8: number;
  boolean: boolean;
  'text[]': string[];
  timestamptz: string;
  jsonb: unknown;
}

/** The fields of an input row and their SQL types. */
export type InputColumns = Readonly<Record<string, keyof InputTypes>>;
export type InputValues<Columns extends InputColumns> = { -readonly [Name in keyof Columns]: InputTypes[Columns[Name]] };

/** A mail's columns of `mails` that its message gives, stored as they are. */
export const MESSAGE_COLUMNS = {
  message_id: 'text',
  from_address: 'text',
  from_name: 'text',
  to_addresses: 'jsonb',
  cc_addresses: 'jsonb',
  subject: 'text',
  /** The Date header, NULL when it has none PostgreSQL can hold (messageFields). */
  sent_at: 'timestamptz',
  snippet: 'text',
  size: 'int',
  has_attachments: 'boolean',
  storage_key: 'text',
  layout: 'jsonb',
} as const satisfies Partial<Record<keyof Tables['mails'], keyof InputTypes>>;

/** All a mail's message gives: its columns, its conversation's Message-IDs, its search row's texts and its attachments' rows. */
export const MESSAGE_FIELDS = {
  ...MESSAGE_COLUMNS,
  thread_references: 'text[]',
  body_text: 'text',
  subject_tokens: 'text',
  people_tokens: 'text',
  body_tokens: 'text',
  attachments: 'jsonb',
} as const;
export type MessageFields = Omit<InputValues<typeof MESSAGE_FIELDS>, 'sent_at'> & { sent_at: string | null };

/** An attachment's columns of `attachments`, less the mail's id; its Content-ID may be null. */
export const ATTACHMENT_COLUMNS = {
  part_id: 'text',
  filename: 'text',
  content_type: 'text',
  disposition: 'text',
  content_id: 'text',
  size: 'int',
  encoding: 'text',
  body_start: 'int',
  body_end: 'int',
} as const satisfies Partial<Record<keyof Tables['attachments'], keyof InputTypes>>;
export type AttachmentFields = Omit<InputValues<typeof ATTACHMENT_COLUMNS>, 'content_id'> & { content_id: string | null };

/** Columns of `mails` that no writer gives: the user's later actions set them, else their defaults. */
type SetLater = 'answered' | 'forwarded' | 'marked_deleted' | 'keywords' | 'deleted_at' | 'created_at' | 'bulk_change_id';
/** Every column of `mails` that a writer gives. */
type WrittenColumn = Exclude<keyof Tables['mails'], SetLater>;

/**
 * Where a writer puts each mail, and its flags: every column it gives but the message's and
 * the thread (which the message decides), each as SQL. Derived from the schema: a column
 * added to `mails` is asked of every writer by the compiler, until it is put among the
 * message's columns or those set later.
 */
export type MailPlacementSql = Record<Exclude<WrittenColumn, keyof typeof MESSAGE_COLUMNS | 'thread_id'>, string>;

/** `INSERT INTO mails (...) SELECT ...` of rows whose every written column is given as SQL; the caller adds FROM and what follows. */
export function insertIntoMails(values: Record<WrittenColumn, string>): string {
  const columns = Object.keys(values) as WrittenColumn[];
  return `INSERT INTO mails (${columns.join(', ')})
  SELECT ${columns.map((column) => values[column]).join(', ')}`;
}

/** The same-named columns of the relation `alias`: `alias.column` for each column of `columns`. */
export function columnsOf<Name extends string>(columns: Readonly<Record<Name, unknown>>, alias: string): Record<Name, string> {
  return Object.fromEntries(Object.keys(columns).map((column) => [column, `${alias}.${column}`])) as Record<Name, string>;
}

/** Column definitions of a record, as `AS x(...)` after jsonb_to_recordset takes them. */
export function columnDefinitions(columns: InputColumns): string {
  return Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
}
