import { z } from 'zod';
import type { AuthenticatedUser } from '@letterbox/auth';
import type { Database } from '@letterbox/db';
import { AppPasswordLimitError, AppPasswordNotFoundError } from '../account-errors';
import { accountSubject } from '../account-subject';
import type { SecurityEvents } from '../security-events';
import { storableInput } from '../storable-input';
import { appPasswordHash, newAppPasswordSecret } from './app-password-secret';
import type { AppPasswordStore, AppPasswordView } from './app-password-store';

/** How many app passwords a user may have at once: one per client or device is plenty, and each is a way in. */
export const MAX_APP_PASSWORDS = 20;

export const appPasswordSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    createdAt: z.string().describe('ISO 8601'),
    lastUsedAt: z.string().nullable().describe('ISO 8601, to the minute; null until a mail client signs in with it'),
  })
  .meta({ id: 'AppPassword' });
export const appPasswordListSchema = z.object({ items: z.array(appPasswordSchema) }).meta({ id: 'AppPasswordList' });
export const newAppPasswordSchema = z.object({ name: storableInput(z.string().trim().min(1, 'must not be empty').max(100)) }).strict();
export const createdAppPasswordSchema = appPasswordSchema
  .extend({
    password: z.string().describe('the app password, shown only in this answer: the mail client signs in with it in place of the account’s password'),
  })
  .meta({ id: 'CreatedAppPassword' });
export type CreatedAppPassword = z.infer<typeof createdAppPasswordSchema>;

/**
 * A user's app passwords: one per mail client, with which it signs in (SMTP submission, IMAP) in place of the
 * account's password, the only way once two-factor sign-in is on. Each is shown once, when made, and kept as a
 * hash. They outlive signing out everywhere (which ends the webmail's sessions, not the mail clients'), and a new
 * password revokes them all, as it does at Google. Making and revoking one is a security event.
 */
export class AppPasswords {
  constructor(
    private readonly db: Database,
    private readonly store: AppPasswordStore,
    private readonly events: SecurityEvents,
  ) {}

  list(current: AuthenticatedUser): Promise<AppPasswordView[]> {
    return this.store.of(current.userId);
  }

  async create(current: AuthenticatedUser, name: string, clientAddress: string): Promise<CreatedAppPassword> {
    const subject = await accountSubject(this.db, current.userId);
    const password = newAppPasswordSecret();
    const created = await this.store.add(current.userId, name, appPasswordHash(password), MAX_APP_PASSWORDS);
    if (!created) throw new AppPasswordLimitError(MAX_APP_PASSWORDS);
    await this.events.record('auth.app-password.create', subject, clientAddress, { appPassword: created.id, name });
    return { ...created, password };
  }

  async revoke(current: AuthenticatedUser, id: number, clientAddress: string): Promise<void> {
    const name = await this.store.remove(current.userId, id);
    if (name === undefined) throw new AppPasswordNotFoundError(id);
    await this.events.record('auth.app-password.revoke', await accountSubject(this.db, current.userId), clientAddress, { appPassword: id, name });
  }
}
