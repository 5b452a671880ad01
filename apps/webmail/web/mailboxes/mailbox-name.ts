import type { Mailbox } from '../api/types';
import { i18next } from '../i18n/i18n';

const SYSTEM_ROLES = ['inbox', 'sent', 'drafts', 'spam', 'trash'] as const;
type SystemRole = (typeof SYSTEM_ROLES)[number];

const isSystemRole = (role: string): role is SystemRole => SYSTEM_ROLES.some((system) => system === role);

/** A system mailbox is called by its role in the user's language; a folder the user made keeps the name they gave it. */
export const mailboxName = (mailbox: Pick<Mailbox, 'name' | 'role'>): string =>
  isSystemRole(mailbox.role) ? i18next.t(`mailbox.role.${mailbox.role}`) : mailbox.name;
