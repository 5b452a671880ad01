import type { MailListFilter } from '../list/mail-filter-sql';

/**
 * A filter whose reads may walk many mails for each they answer: full-text search and its
 * operators (`q=`), and the part-of-a-word matches of sender and subject, which no index
 * narrows. Mailbox, flag and date filters walk an index and stay light.
 */
export function isHeavyFilter(filter: MailListFilter): boolean {
  return filter.search !== undefined || Boolean(filter.from) || Boolean(filter.subject);
}
