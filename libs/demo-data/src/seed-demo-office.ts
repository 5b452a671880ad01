import { createOffice, createUser, type CreatedUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { newCertKey, storeMail } from '@letterbox/mail';
import { randomMail, referenceMail, type Address } from '@letterbox/mail-generator';
import type { BlobStore } from '@letterbox/storage';

export const DEMO_DOMAIN = 'letterbox.test';
export const DEMO_PASSWORD = 'letterbox-demo';

export interface DemoOffice {
  officeId: number;
  users: Record<'alice' | 'bob', CreatedUser & { projectsMailboxId: number; privateMailboxId: number }>;
  /** The office's administrator, with no mail of their own. */
  admin: CreatedUser;
}

export const DEMO_ADMIN = { name: 'Office Admin', address: `admin@${DEMO_DOMAIN}` } satisfies Address;

const PEOPLE = {
  alice: { name: 'Alice Kim', address: `alice@${DEMO_DOMAIN}` },
  bob: { name: 'Bob Tanaka', address: `bob@${DEMO_DOMAIN}` },
} satisfies Record<string, Address>;

const RANDOM_MAILS_PER_USER = 40;

/**
 * The demo office `npm start` shows: alice and bob, each with mail of the three
 * reference sizes (4 KB, 712 KB, 22 MB), varied everyday mail, a custom mailbox, a
 * locked one, and a sent mail with a read receipt; and its administrator, admin.
 * Returns undefined when it exists.
 */
export async function seedDemoOffice(db: Database, blobs: BlobStore): Promise<DemoOffice | undefined> {
  const existing = await db.prisma.office.findUnique({ where: { domain: DEMO_DOMAIN } });
  if (existing) {
    // A demo office seeded before offices had administrators gets its own.
    if (!(await db.prisma.user.findUnique({ where: { email: DEMO_ADMIN.address } }))) await createDemoAdmin(db, existing.id);
    return undefined;
  }
  const office = await createOffice(db, { name: 'Letterbox Demo', domain: DEMO_DOMAIN });
  const admin = await createDemoAdmin(db, office.id);
  const users = {} as DemoOffice['users'];
  for (const [key, person] of Object.entries(PEOPLE) as Array<[keyof typeof PEOPLE, Address]>) {
    const user = await createUser(db, { officeId: office.id, email: person.address, displayName: person.name, password: DEMO_PASSWORD });
    const projects = await db.prisma.mailbox.create({ data: { userId: user.id, name: 'Projects', role: 'custom' } });
    const locked = await db.prisma.mailbox.create({ data: { userId: user.id, name: 'Private', role: 'custom', locked: true } });
    users[key] = { ...user, projectsMailboxId: projects.id, privateMailboxId: locked.id };
  }
  for (const [key, user] of Object.entries(users) as Array<[keyof typeof PEOPLE, DemoOffice['users']['alice']]>) {
    const me = PEOPLE[key];
    const other = key === 'alice' ? PEOPLE.bob : PEOPLE.alice;
    await seedMailOf(db, blobs, user, me, other);
  }
  await seedSentWithReceipt(db, blobs, office.id, users.alice, PEOPLE.alice, PEOPLE.bob);
  return { officeId: office.id, users, admin };
}

function createDemoAdmin(db: Database, officeId: number): Promise<CreatedUser> {
  return createUser(db, { officeId, email: DEMO_ADMIN.address, displayName: DEMO_ADMIN.name, password: DEMO_PASSWORD, role: 'admin' });
}

async function seedMailOf(db: Database, blobs: BlobStore, user: DemoOffice['users']['alice'], me: Address, other: Address) {
  const now = Date.now();
  for (let index = 0; index < RANDOM_MAILS_PER_USER; index++) {
    const mailboxId = index % 13 === 5 ? user.privateMailboxId : index % 5 === 1 ? user.projectsMailboxId : user.mailboxes.inbox;
    const eml = await randomMail(user.id * 1000 + index, { to: [me] });
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId,
      eml,
      receivedAt: new Date(now - (index + 3) * 5 * 3600_000),
      seen: index > 6,
      flagged: index % 7 === 0,
    });
  }
  const sizes = ['large', 'medium', 'small'] as const;
  for (const [index, size] of sizes.entries()) {
    const subject = { small: 'Lunch on Friday? 金曜日のランチ', medium: 'Q3 report with charts 📊', large: 'Project archive (16 MB attachment)' }[size];
    const eml = await referenceMail(size, { from: other, to: [me], subject, date: new Date(now - (3 - index) * 3600_000) });
    await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml, flagged: size === 'medium' });
  }
}

async function seedSentWithReceipt(db: Database, blobs: BlobStore, officeId: number, sender: DemoOffice['users']['alice'], from: Address, to: Address) {
  const eml = await referenceMail('small', { from, to: [to], subject: 'Minutes of Monday’s meeting', date: new Date(Date.now() - 26 * 3600_000) });
  const sent = await storeMail(db, blobs, { userId: sender.id, mailboxId: sender.mailboxes.sent, eml, seen: true });
  await db.prisma.readReceipt.create({
    data: { officeId, mailId: BigInt(sent.id), recipientEmail: to.address, certKey: newCertKey() },
  });
}
