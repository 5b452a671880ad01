import type { FullAddress } from './inbound-errors';
import type { RecipientAddress } from './recipient-directory';
import type { MailboxUsage } from './recipient-quotas';

export interface QuotaVerdict {
  /** The users the message is to be stored for. */
  userIds: number[];
  /** The addresses that cannot take it. */
  full: FullAddress[];
}

/**
 * Which of a message's addresses can take it. A user's address cannot once the message
 * would take its user past their quota. A group's address delivers to the members who
 * can take it, as a list would, and cannot only when none can. A user addressed directly
 * is kept even when full: whether that refuses the message is the caller's to decide (see
 * InboundMessage.quota), and a message accepted for them must reach them. A message of
 * unknown size (0) counts as one byte: a mailbox exactly at its quota is full.
 */
export function quotaVerdict(recipients: Map<string, RecipientAddress>, usage: Map<number, MailboxUsage>, messageBytes: number): QuotaVerdict {
  const bytes = Math.max(messageBytes, 1);
  // A user deleted since they were resolved has no usage: the ingest worker skips them.
  const fits = (userId: number) => {
    const of = usage.get(userId);
    return !of || of.usedBytes + bytes <= of.quotaBytes;
  };
  const userIds = new Set<number>();
  const full: FullAddress[] = [];
  for (const [address, { userIds: users, group }] of recipients) {
    if (!group) {
      const [userId] = users;
      userIds.add(userId);
      if (!fits(userId)) full.push({ address, usage: usage.get(userId) });
      continue;
    }
    const members = users.filter(fits);
    if (members.length === 0) full.push({ address });
    for (const member of members) userIds.add(member);
  }
  return { userIds: [...userIds], full };
}
