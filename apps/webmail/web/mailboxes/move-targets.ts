import type { Mailbox } from '../api/types';

/** Where mail can be moved to: every unlocked mailbox but the one it is in. */
export function moveTargets(mailboxes: Mailbox[], currentMailboxId: number | null): Mailbox[] {
  return mailboxes.filter((mailbox) => mailbox.id !== currentMailboxId && !mailbox.locked);
}
