import type { MailboxCounters } from '../mailboxes/mailbox-queries';
import type { MailListFilter } from './mail-filter-sql';

/** The total straight from mailbox counters, when the filter is one they keep. */
export function totalFromCounters(mailboxes: MailboxCounters[], filter: MailListFilter): number | undefined {
  const { mailboxId, seen, ...others } = filter;
  if (Object.values(others).some((value) => value !== undefined)) return undefined;
  const counted = mailboxes.filter((mailbox) => !mailbox.locked && (mailboxId === undefined || mailbox.id === mailboxId));
  return counted.reduce((sum, mailbox) => {
    if (seen === undefined) return sum + mailbox.totalCount;
    return sum + (seen ? mailbox.totalCount - mailbox.unreadCount : mailbox.unreadCount);
  }, 0);
}
