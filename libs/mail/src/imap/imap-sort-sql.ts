import { SENT_AT_SQL } from './imap-search-sql';

/** A SORT criterion (RFC 5256 3, RFC 5957): DISPLAYFROM and DISPLAYTO are SORT=DISPLAY's. */
export type ImapSortField = 'arrival' | 'cc' | 'date' | 'from' | 'size' | 'subject' | 'to' | 'displayfrom' | 'displayto';

/** A sort key: its field, descending when REVERSE came before it. */
export interface ImapSortKey {
  field: ImapSortField;
  reverse: boolean;
}

/** An address's addr-mailbox (RFC 5256 2.2): the part before its last "@", lower case, so compared i;ascii-casemap. */
const mailboxOf = (address: string) => `lower(regexp_replace(${address}, '@[^@]*$', ''))`;

/** The first address of a jsonb [{ name, address }] list. */
const firstAddress = (list: string) => `COALESCE(${list}->0->>'address', '')`;

/** RFC 5957 3: the first address's display name, its address when it has none. */
const displayOf = (name: string, address: string) => `lower(COALESCE(NULLIF(${name}, ''), ${address}))`;

/**
 * Each field's value as SQL over `mails m`; text compared by code point (COLLATE "C"), the same on every database.
 * A missing address sorts as the empty string (RFC 5256 3), a missing Date as the arrival (SENT_AT_SQL).
 */
const FIELD_SQL: Record<ImapSortField, string> = {
  arrival: 'm.received_at',
  date: SENT_AT_SQL,
  size: 'm.size',
  from: `${mailboxOf('m.from_address')} COLLATE "C"`,
  to: `${mailboxOf(firstAddress('m.to_addresses'))} COLLATE "C"`,
  cc: `${mailboxOf(firstAddress('m.cc_addresses'))} COLLATE "C"`,
  subject: 'imap_base_subject(m.subject) COLLATE "C"',
  displayfrom: `${displayOf('m.from_name', 'm.from_address')} COLLATE "C"`,
  displayto: `${displayOf("m.to_addresses->0->>'name'", firstAddress('m.to_addresses'))} COLLATE "C"`,
};

/**
 * SORT's ORDER BY: the keys, then the UID, which is the order of arrival in the mailbox (RFC 5256 3: ties go by
 * sequence number). Over `mails m` and `mail_uids u`; the base subject is computed as it is read (imap_base_subject,
 * linear in the subject).
 */
export function imapSortSql(keys: readonly ImapSortKey[]): string {
  return [...keys.map((key) => `${FIELD_SQL[key.field]}${key.reverse ? ' DESC' : ''}`), 'u.uid'].join(', ');
}
