import { randomUUID } from 'node:crypto';
import { createOffice, createUser, type CreatedUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';

export interface TestUser extends CreatedUser {
  password: string;
  domain: string;
  displayName: string;
}

/**
 * A user in an office of its own, with a unique domain, so tests running side by side
 * on one database never see each other's data.
 */
export async function createTestUser(db: Database, name = 'user'): Promise<TestUser> {
  const domain = `${randomUUID().slice(0, 12)}.test`;
  const office = await createOffice(db, { name: `Test office ${domain}`, domain });
  const password = 'correct horse battery staple';
  const displayName = `Test ${name}`;
  const user = await createUser(db, { officeId: office.id, email: `${name}@${domain}`, displayName, password });
  return { ...user, password, domain, displayName };
}
