import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { AuthenticatedUser } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { DATABASE } from '@letterbox/nest-infrastructure';
import { BatchCollector } from '@letterbox/queue';
import { sendGroupCommit, type Sender } from '@letterbox/sending';
import { SEND_API_CONFIG, type SendApiConfig } from '../send-api.config';

type SenderIdentity = Pick<Sender, 'email' | 'displayName'>;

/**
 * Who the signed-in user is as a sender: the address and name their mail goes out with.
 * Requests arriving together are looked up with one query, as their sends are recorded.
 */
@Injectable()
export class SenderDirectory {
  private readonly lookups: BatchCollector<number, SenderIdentity | undefined>;

  constructor(@Inject(DATABASE) db: Database, @Inject(SEND_API_CONFIG) config: SendApiConfig) {
    this.lookups = new BatchCollector(
      async (userIds) => {
        const { rows } = await db.sql.query<{ id: number; email: string; display_name: string }>({
          name: 'senders-of',
          text: 'SELECT id, email, display_name FROM users WHERE id = ANY($1::int[])',
          values: [userIds],
        });
        const byId = new Map(rows.map((row) => [row.id, { email: row.email, displayName: row.display_name }]));
        return userIds.map((userId) => byId.get(userId));
      },
      sendGroupCommit(config.SEND_GROUP_COMMIT_MAX),
    );
  }

  async of(user: AuthenticatedUser): Promise<Sender> {
    const identity = await this.lookups.add(user.userId);
    if (!identity) throw new UnauthorizedException('the signed-in user no longer exists');
    return { userId: user.userId, officeId: user.officeId, ...identity };
  }
}
