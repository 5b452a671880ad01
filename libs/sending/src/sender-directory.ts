import { BatchCollector, type BatchLimits } from '@letterbox/queue';
import { NotSendersAddressError, SenderGoneError } from './send-errors';
import type { Sender } from './submit/send-request';

/** The address and name a user's mail goes out with, and every address they may send from. */
export interface SenderIdentity extends Pick<Sender, 'email' | 'displayName'> {
  /** Lower-case: the primary first, then the aliases. */
  addresses: string[];
  /** The name mail from an address shows, for the addresses that have their own (identities); else displayName. */
  addressNames?: Record<string, string>;
}

/** The signed-in user as a sender, with the addresses they may choose as From and the names those of their own show. */
export interface SignedInSender extends Sender, Pick<SenderIdentity, 'addresses' | 'addressNames'> {}

/** The identities of these users, in the order given; undefined for a user who no longer exists. */
export type SenderIdentities = (userIds: number[]) => Promise<Array<SenderIdentity | undefined>>;

/**
 * Who the signed-in user is as a sender: the address and name their mail goes out with.
 * Requests arriving together are looked up with one query, as their sends are recorded.
 */
export class SenderDirectory {
  private readonly lookups: BatchCollector<number, SenderIdentity | undefined>;

  constructor(identitiesOf: SenderIdentities, groupLimits: BatchLimits) {
    this.lookups = new BatchCollector(identitiesOf, groupLimits);
  }

  async of(user: Pick<Sender, 'userId' | 'officeId'>): Promise<SignedInSender> {
    const identity = await this.lookups.add(user.userId);
    if (!identity) throw new SenderGoneError();
    return { userId: user.userId, officeId: user.officeId, ...identity };
  }
}

/** The From a sender asked for, lower-case, once it is found to be one of their own addresses; undefined: their primary. */
export function ownFromAddress(sender: SignedInSender, from: string | undefined): string | undefined {
  if (from === undefined) return undefined;
  const address = from.trim().toLowerCase();
  if (!sender.addresses.includes(address)) throw new NotSendersAddressError(from);
  return address;
}

/** The name mail from this address (lower-case, as ownFromAddress gives it; undefined: the primary) shows, when its identity has one of its own. */
export function ownFromName(sender: SignedInSender, from: string | undefined): string | undefined {
  return sender.addressNames?.[from ?? sender.email.toLowerCase()];
}
