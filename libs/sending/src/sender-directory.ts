import { BatchCollector, type BatchLimits } from '@letterbox/queue';
import { SenderGoneError } from './send-errors';
import type { Sender } from './submit/send-request';

/** The address and name a user's mail goes out with. */
export type SenderIdentity = Pick<Sender, 'email' | 'displayName'>;

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

  async of(user: Pick<Sender, 'userId' | 'officeId'>): Promise<Sender> {
    const identity = await this.lookups.add(user.userId);
    if (!identity) throw new SenderGoneError();
    return { userId: user.userId, officeId: user.officeId, ...identity };
  }
}
