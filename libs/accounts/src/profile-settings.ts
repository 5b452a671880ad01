import { z } from 'zod';
import { namedStatement, type Database } from '@letterbox/db';
import { accountProfile, type AccountProfile } from './account-profile';
import { UserGoneError } from './account-errors';
import { USER_LOCALES } from './user-locale';

/** What a user may change of their own profile (`PATCH /v2/auth/me`). */
export const profileChanges = z
  .object({
    locale: z.enum(USER_LOCALES).describe('the language of the webmail and of the notices Letterbox writes to the user'),
  })
  .partial()
  .strict();
export type ProfileChanges = z.infer<typeof profileChanges>;

const SET_LOCALE = namedStatement('users-set-locale', 'UPDATE users SET locale = $2 WHERE id = $1');

/** A user's own settings of their profile; each change answers the whole profile, as GET /v2/auth/me does. */
export class ProfileSettings {
  constructor(
    private readonly db: Database,
    private readonly defaultQuotaBytes: number,
  ) {}

  async change(userId: number, changes: ProfileChanges): Promise<AccountProfile> {
    if (changes.locale) await this.db.sql.query({ ...SET_LOCALE, values: [userId, changes.locale] });
    const profile = await accountProfile(this.db, userId, this.defaultQuotaBytes);
    if (!profile) throw new UserGoneError();
    return profile;
  }
}
