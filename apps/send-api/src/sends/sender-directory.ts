import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { AuthenticatedUser } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { DATABASE } from '@letterbox/nest-infrastructure';
import type { Sender } from '@letterbox/sending';

/** Who the signed-in user is as a sender: the address and name their mail goes out with. */
@Injectable()
export class SenderDirectory {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async of(user: AuthenticatedUser): Promise<Sender> {
    const { rows } = await this.db.sql.query<{ email: string; display_name: string }>({
      name: 'sender-of',
      text: 'SELECT email, display_name FROM users WHERE id = $1',
      values: [user.userId],
    });
    if (!rows[0]) throw new UnauthorizedException('the signed-in user no longer exists');
    return { userId: user.userId, officeId: user.officeId, email: rows[0].email, displayName: rows[0].display_name };
  }
}
