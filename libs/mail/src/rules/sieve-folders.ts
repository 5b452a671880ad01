import type { MailboxCounters } from '../mailboxes/mailbox-queries';

/**
 * The mailbox a script's `fileinto` names: a system mailbox by its role ("INBOX", "Spam", in any
 * case), else a folder by its name; the exact name first, then the name in any case.
 */
export function sieveFolder<M extends Pick<MailboxCounters, 'id' | 'name' | 'role'>>(mailboxes: M[], name: string): M | undefined {
  const wanted = name.toLowerCase();
  return (
    mailboxes.find((mailbox) => mailbox.role !== 'custom' && mailbox.role === wanted) ??
    mailboxes.find((mailbox) => mailbox.name === name) ??
    mailboxes.find((mailbox) => mailbox.name.toLowerCase() === wanted)
  );
}
