import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '@letterbox/accounts';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, sleep, testBlobStore, testDatabase, waitFor, type TestUser } from '@letterbox/testing';
import { desktopContext, launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';
import { plainEml } from './testing/test-mail';
import { totpCode, totpStep } from './testing/totp';

/**
 * The account in the webmail, in Chromium: signing out on the server, changing the password, signing out everywhere,
 * two-factor sign-in, the storage meter, and an office administrator's pages (a user they create signs in).
 */
describe('the account and administration in a real browser', { timeout: 10 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  const pageErrors: string[] = [];
  const screenshots: string[] = [];

  before(async () => {
    db = testDatabase();
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'account-logs')).catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
    for (const file of screenshots) console.log(`screenshot: ${path.relative(process.cwd(), file)}`);
  });

  async function screenshot(page: Page, name: string): Promise<void> {
    const file = path.join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  }

  /** A page of its own browser context (its own session storage), closed after `use`. */
  async function withPage(use: (page: Page) => Promise<void>): Promise<void> {
    const context = await desktopContext(browser);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await use(page);
    } finally {
      await context.close();
    }
  }

  async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
    if (!page.url().startsWith(platform.webmailUrl)) await page.goto(platform.webmailUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const inboxLink = (page: Page) => page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Inbox/ });

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await submitSignIn(page, email, password);
    await inboxLink(page).waitFor();
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  }

  const tokenIn = (page: Page) =>
    page.evaluate(() => (JSON.parse(sessionStorage.getItem('letterbox.session') ?? '{}') as { accessToken?: string }).accessToken ?? null);

  /** What the read API answers `GET /v2/auth/me` with this token. */
  const meStatus = async (token: string | null) =>
    (await fetch(`${platform.readApiUrl}/v2/auth/me`, { headers: { authorization: `Bearer ${token ?? ''}` } })).status;

  async function apiLogin(email: string, password: string, totp?: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${platform.readApiUrl}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, ...(totp ? { totp } : {}) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function openSettings(page: Page): Promise<void> {
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
  }

  test('sign out ends the session on the server: its token answers 401 afterwards', async () => {
    const user = await createTestUser(db, 'leaver');
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      const token = await tokenIn(page);
      assert.equal(await meStatus(token), 200);
      await signOut(page);
      assert.equal(await tokenIn(page), null, 'the browser forgot it');
      assert.equal(await meStatus(token), 401, 'and the server ended it');
    });
  });

  test('the password is changed in the settings: this session goes on, the other sessions and the old password end', async () => {
    const user = await createTestUser(db, 'changer');
    const elsewhere = await apiLogin(user.email, user.password);
    const newPassword = 'a brand new passphrase';
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      await openSettings(page);
      await page.getByLabel('Current password', { exact: true }).fill('not the password');
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Repeat the new password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /password/i })
        .waitFor();

      await page.getByLabel('Current password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Your password was changed' }).waitFor();
      await screenshot(page, 'settings-password-changed');
      assert.equal(await meStatus(await tokenIn(page)), 200, 'the fresh token of this session stands');
      assert.equal(await meStatus(String(elsewhere.body.accessToken)), 401, 'the other session ended');
      await page.getByRole('link', { name: /Letterbox/ }).click();
      await inboxLink(page).waitFor();
    });
    assert.equal((await apiLogin(user.email, user.password)).status, 401);
    assert.equal((await apiLogin(user.email, newPassword)).status, 200);
  });

  test('"Sign out everywhere" ends every session of the user, on the server', async () => {
    const user = await createTestUser(db, 'everywhere');
    const elsewhere = await apiLogin(user.email, user.password);
    assert.equal(await meStatus(String(elsewhere.body.accessToken)), 200);
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      const token = await tokenIn(page);
      await openSettings(page);
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.equal(await meStatus(token), 401);
    });
    assert.equal(await meStatus(String(elsewhere.body.accessToken)), 401);
  });

  test('a rule made in the settings files a mail into a folder as it arrives; the script stays editable, and a bad one is refused by its line', async () => {
    const user = await createTestUser(db, 'rules');
    await db.sql.query("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Bills', 'custom')", [user.id]);
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      await openSettings(page);
      const rules = page.getByRole('region', { name: 'Rules' });
      const form = rules.getByRole('form', { name: 'New rule' });
      await form.getByLabel('Name').fill('Bills');
      await form.getByLabel('When').selectOption('from');
      await form.getByLabel('Value').fill('billing@vendor.example');
      await form.getByLabel('Then').selectOption('fileinto');
      await form.getByLabel('Folder').selectOption('Bills');
      await form.getByRole('button', { name: 'Add rule' }).click();
      const script = rules.getByLabel('The rules as a Sieve script');
      assert.match(
        await script.inputValue(),
        /^require \["fileinto"\];\n# rule:\[Bills\]\nif address :contains "from" "billing@vendor\.example" \{\n {2}fileinto "Bills";\n\}\n$/,
      );
      await rules.getByRole('button', { name: 'Save rules' }).click();
      await rules.getByRole('status').filter({ hasText: 'Rules saved.' }).waitFor();

      await script.fill(`${await script.inputValue()}fileinto "Nowhere";\n`);
      await rules.getByRole('button', { name: 'Save rules' }).click();
      await rules.getByRole('alert').filter({ hasText: 'line 6, column 10: there is no folder named "Nowhere"' }).waitFor();
      await screenshot(page, 'rules-refused');
      await page.reload();
      assert.doesNotMatch(await rules.getByLabel('The rules as a Sieve script').inputValue(), /Nowhere/, 'the rules stayed as saved');

      const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: platform.ingestSmtpPort, secure: false, ignoreTLS: true });
      try {
        await smtp.sendMail({ from: 'billing@vendor.example', to: user.email, subject: 'Invoice 11/2026', text: 'Due in 30 days.' });
        await smtp.sendMail({ from: 'friend@outside.example', to: user.email, subject: 'Lunch?', text: 'Noon?' });
      } finally {
        smtp.close();
      }
      await page.goto(platform.webmailUrl);
      await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Bills/ }).click();
      await page.getByText('Invoice 11/2026').waitFor();
      assert.equal(await page.getByText('Lunch?').count(), 0, 'the other mail is not in the folder');
      await inboxLink(page).click();
      await page.getByText('Lunch?').waitFor();
      await screenshot(page, 'rules-filed');
    });
  });

  test('"Redirect to" adds a redirect rule, and "Apply to existing mail" files the mail already in a folder', async () => {
    const user = await createTestUser(db, 'rules-apply');
    await db.sql.query("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Bills', 'custom')", [user.id]);
    await storeMail(db, testBlobStore(), {
      userId: user.id,
      mailboxId: user.mailboxes.inbox,
      eml: plainEml({ from: 'billing@vendor.example', to: user.email, subject: 'Invoice 10/2026', text: 'Paid.' }),
    });
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      await openSettings(page);
      const rules = page.getByRole('region', { name: 'Rules' });
      const form = rules.getByRole('form', { name: 'New rule' });
      await form.getByLabel('Name').fill('Boss');
      await form.getByLabel('When').selectOption('subject');
      await form.getByLabel('Value').fill('urgent');
      await form.getByLabel('Then').selectOption('redirect');
      await form.getByLabel('Address').fill('boss@elsewhere.example');
      await form.getByLabel('Keep a copy here too').check();
      await form.getByRole('button', { name: 'Add rule' }).click();
      await form.getByLabel('Name').fill('Bills');
      await form.getByLabel('When').selectOption('from');
      await form.getByLabel('Value').fill('billing@vendor.example');
      await form.getByLabel('Then').selectOption('fileinto');
      await form.getByLabel('Folder').selectOption('Bills');
      await form.getByRole('button', { name: 'Add rule' }).click();
      assert.match(
        await rules.getByLabel('The rules as a Sieve script').inputValue(),
        /^require \["copy", "fileinto"\];\n# rule:\[Boss\]\nif header :contains "subject" "urgent" \{\n {2}redirect :copy "boss@elsewhere\.example";\n\}\n# rule:\[Bills\]\n/,
      );
      await rules.getByRole('button', { name: 'Save rules' }).click();
      await rules.getByRole('status').filter({ hasText: 'Rules saved.' }).waitFor();
      await rules.getByLabel('Mail in').selectOption({ label: 'Inbox' });
      await rules.getByRole('button', { name: 'Apply to existing mail' }).click();
      await rules.getByRole('status').filter({ hasText: 'Rules matched 1 of 1 mails; 1 changed.' }).waitFor();
      await screenshot(page, 'rules-applied');
      await page.goto(platform.webmailUrl);
      await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Bills/ }).click();
      await page.getByText('Invoice 10/2026').waitFor();
    });
  });

  test('an out-of-office reply set in the settings reaches an outside sender once, marked automatic, and never a list', async () => {
    const user = await createTestUser(db, 'away');
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      await openSettings(page);
      const card = page.getByRole('region', { name: 'Out-of-office reply' });
      await card.getByLabel('Send an out-of-office reply').check();
      await card.getByLabel('Subject').fill('Away this week');
      await card.getByLabel('Message').fill('I am away this week and will answer on Monday.');
      await card.getByRole('button', { name: 'Save reply' }).click();
      await card.getByRole('status').filter({ hasText: 'Out-of-office reply saved.' }).waitFor();
      await screenshot(page, 'vacation-saved');
    });
    const sender = `carol-${randomUUID().slice(0, 8)}@outside.example`;
    const list = `news-${randomUUID().slice(0, 8)}@outside.example`;
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: platform.ingestSmtpPort, secure: false, ignoreTLS: true });
    try {
      await smtp.sendMail({ from: sender, to: user.email, subject: 'Are you there?', text: 'Hello?' });
      await smtp.sendMail({ from: sender, to: user.email, subject: 'Still there?', text: 'Hello again?' });
      await smtp.sendMail({
        from: list,
        to: user.email,
        subject: 'Weekly news',
        text: 'News.',
        list: { id: 'news.outside.example', unsubscribe: `mailto:${list}` },
      });
    } finally {
      smtp.close();
    }
    const deliveredTo = async (address: string) =>
      (await (await fetch(`${platform.mockProvidersUrl}/smtp/messages?to=${encodeURIComponent(address)}`)).json()) as {
        total: number;
        items: Array<{ headers: Array<{ name: string; value: string }> }>;
      };
    const replies = await waitFor(
      async () => {
        const delivered = await deliveredTo(sender);
        return delivered.total > 0 ? delivered : undefined;
      },
      { timeoutMs: 60_000, what: 'the out-of-office reply at the mock SMTP provider' },
    );
    const header = (name: string) => replies.items[0].headers.find((candidate) => candidate.name.toLowerCase() === name)?.value;
    assert.equal(header('subject'), 'Away this week');
    assert.equal(header('auto-submitted'), 'auto-replied');
    assert.ok(header('in-reply-to'), 'it answers the first mail');
    await sleep(3000);
    assert.equal((await deliveredTo(sender)).total, 1, 'one reply for two mails');
    assert.equal((await deliveredTo(list)).total, 0, 'no reply to a list');
  });

  test('the sidebar shows the storage used of the quota, and warns from 90 %', async () => {
    const user = await createTestUser(db, 'hoarder');
    await storeMail(db, testBlobStore(), {
      userId: user.id,
      mailboxId: user.mailboxes.inbox,
      eml: plainEml({ from: 'big@example.test', to: user.email, subject: 'Something to count', text: 'x'.repeat(20_000) }),
    });
    const { usedBytes } = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { usedBytes: true } });
    assert.ok(usedBytes > 0n, 'the stored mail is counted');
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      const storage = page.getByRole('region', { name: 'Storage' });
      await storage.getByText(/ of 2\.0 GB used \(0%\)/).waitFor();
      assert.equal(await storage.getByRole('alert').count(), 0, 'no warning far below the quota');

      // 95 % of the quota used.
      await db.prisma.user.update({ where: { id: user.id }, data: { quotaBytes: (usedBytes * 100n) / 95n } });
      await page.reload();
      await storage.getByText(/used \(95%\)/).waitFor();
      await storage.getByRole('alert').filter({ hasText: 'Your mailbox is almost full' }).waitFor();
      await screenshot(page, 'quota-warning');
    });
  });

  test('two-factor sign-in: set up from a QR code, then sign-in asks for a code (computed here) or a recovery code; turned off with the password', async () => {
    const user = await createTestUser(db, 'careful');
    await withPage(async (page) => {
      await signIn(page, user.email, user.password);
      await openSettings(page);
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
      await qr.waitFor();
      assert.ok(((await qr.locator('path').getAttribute('d')) ?? '').length > 500, 'the QR code has its modules drawn');
      const secret = ((await page.locator('.totp-secret').textContent()) ?? '').trim();
      assert.match(secret, /^[A-Z2-7]+=*$/, 'the key is shown as base32 too');
      await screenshot(page, 'totp-setup');

      await page.getByLabel('Code from the app').fill(totpCode(secret));
      const confirmedStep = totpStep();
      await page.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await codes.first().waitFor();
      assert.equal(await codes.count(), 10);
      const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByText('On: signing in asks for a code').waitFor();

      await signOut(page);
      await submitSignIn(page, user.email, user.password);
      await page.getByRole('alert').filter({ hasText: 'Enter the code your authenticator app shows' }).waitFor();
      await page.getByLabel('Authentication code').fill('000000' === totpCode(secret) ? '111111' : '000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
      // A code is good for one sign-in, and the one that turned it on was taken: the phone's next code, a step ahead
      // (taken as a clock off by a little), is the next one the app shows, without waiting up to 30 s for it.
      await page.getByLabel('Authentication code').fill(totpCode(secret, confirmedStep + 1));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await inboxLink(page).waitFor();

      await signOut(page);
      await submitSignIn(page, user.email, user.password);
      await page.getByLabel('Authentication code').fill(recoveryCodes[0]);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await inboxLink(page).waitFor();
      assert.equal((await apiLogin(user.email, user.password, recoveryCodes[0])).status, 401, 'a recovery code signs in once');

      await openSettings(page);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    });
    assert.equal((await apiLogin(user.email, user.password)).status, 200, 'the password alone signs in again');
  });

  test('an administrator creates a user (errors of the API shown), gives an alias and a group; the user chooses a password at first sign-in; disabled, then deleted', async () => {
    const admin = await createTestUser(db, 'admin');
    await db.prisma.user.update({ where: { id: admin.id }, data: { role: 'admin' } });
    const plain: TestUser = await createTestUser(db, 'plain');
    const newcomer = `newcomer.${randomUUID().slice(0, 6)}@${admin.domain}`;
    const initialPassword = 'initial password 1';
    const ownPassword = 'my own secret passphrase';
    const alias = `nc.${randomUUID().slice(0, 6)}@${admin.domain}`;

    await withPage(async (page) => {
      await signIn(page, plain.email, plain.password);
      assert.equal(await page.getByRole('link', { name: 'Administration' }).count(), 0, 'not offered to a user');
    });

    await withPage(async (page) => {
      await signIn(page, admin.email, admin.password);
      await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Administration' }).click();
      const users = page.getByRole('region', { name: 'Users' });
      await users.locator(`tr[data-email="${admin.email}"]`).waitFor();

      await users.getByRole('button', { name: 'New user' }).click();
      const form = page.getByRole('form', { name: 'New user' });
      await form.getByLabel('Address').fill(admin.email);
      await form.getByLabel('Display name').fill('Somebody');
      await form.getByLabel('Initial password').fill(initialPassword);
      await form.getByRole('button', { name: 'Create user' }).click();
      await form.getByRole('alert').waitFor();
      assert.ok(((await form.getByRole('alert').textContent()) ?? '').length > 0, "the API's problem is shown");

      await form.getByLabel('Address').fill(newcomer);
      await form.getByLabel('Display name').fill('New Comer');
      await form.getByRole('button', { name: 'Create user' }).click();
      const row = users.locator(`tr[data-email="${newcomer}"]`);
      await row.waitFor();
      const editor = page.getByRole('group', { name: `Edit ${newcomer}` });
      await editor.getByLabel('New alias').fill(alias);
      await editor.getByRole('button', { name: 'Add alias' }).click();
      await editor
        .getByRole('list', { name: `Aliases of ${newcomer}` })
        .getByText(alias)
        .waitFor();
      await screenshot(page, 'admin-users');

      await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Groups' }).click();
      await page.getByRole('button', { name: 'New group' }).click();
      const groupForm = page.getByRole('form', { name: 'New group' });
      await groupForm.getByLabel('Group name').fill('Sales');
      await groupForm.getByLabel('Group address').fill(`sales@${admin.domain}`);
      await groupForm.getByLabel(newcomer).check();
      await groupForm.getByRole('button', { name: 'Create group' }).click();
      await page.getByRole('listitem', { name: 'Sales' }).getByText(newcomer).waitFor();

      await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Audit log' }).click();
      await page.getByLabel('Action').fill('user.create');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByRole('region', { name: 'Audit log' }).getByRole('cell', { name: 'user.create' }).first().waitFor();
      await screenshot(page, 'admin-audit');
    });

    await withPage(async (page) => {
      await submitSignIn(page, newcomer, initialPassword);
      await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
      await page.getByLabel('Password you were given', { exact: true }).fill(initialPassword);
      await page.getByLabel('New password', { exact: true }).fill(ownPassword);
      await page.getByLabel('Repeat the new password', { exact: true }).fill(ownPassword);
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await inboxLink(page).waitFor();
    });
    const signedIn = await apiLogin(newcomer, ownPassword);
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.body.passwordChangeRequired, false);

    // Mail from the internet over SMTP: one message to the address, the alias and the group is stored once; the group alone, once more.
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: platform.ingestSmtpPort, secure: false, ignoreTLS: true });
    await smtp.sendMail({ from: 'someone@outside.example', to: [newcomer, alias, `sales@${admin.domain}`], subject: 'To all of them', text: 'Hello.' });
    await smtp.sendMail({ from: 'someone@outside.example', to: `sales@${admin.domain}`, subject: 'To the team', text: 'Hello, team.' });
    smtp.close();
    const token = signedIn.body.accessToken as string;
    const subjects = await waitFor(
      async () => {
        const response = await fetch(`${platform.readApiUrl}/v2/mails?limit=10`, { headers: { authorization: `Bearer ${token}` } });
        const found = ((await response.json()) as { items: Array<{ subject: string }> }).items.map((mail) => mail.subject).sort();
        return found.length >= 2 ? found : undefined;
      },
      { what: 'the two messages in the newcomer’s inbox', timeoutMs: 60_000 },
    );
    // A moment more, for a third copy that must never come.
    await sleep(1000);
    const again = await fetch(`${platform.readApiUrl}/v2/mails?limit=10`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(((await again.json()) as { items: unknown[] }).items.length, 2);
    assert.deepEqual(subjects, ['To all of them', 'To the team']);

    await withPage(async (page) => {
      await signIn(page, admin.email, admin.password);
      await page.goto(`${platform.webmailUrl}/#/admin/users`);
      const users = page.getByRole('region', { name: 'Users' });
      await users.getByRole('searchbox', { name: 'Search users' }).fill(newcomer);
      await users.getByRole('button', { name: 'Search' }).click();
      await users.getByRole('button', { name: `Edit ${newcomer}` }).click();
      const editor = page.getByRole('group', { name: `Edit ${newcomer}` });
      await editor.getByRole('button', { name: 'Disable user' }).click();
      await editor.getByText('Disabled: cannot sign in').waitFor();
      assert.notEqual((await apiLogin(newcomer, ownPassword)).status, 200, 'a disabled user cannot sign in');

      await editor.getByRole('button', { name: `Delete ${newcomer}` }).click();
      await editor.getByRole('button', { name: 'Yes, delete' }).click();
      await users.locator(`tr[data-email="${newcomer}"]`).waitFor({ state: 'detached' });
    });
  });

  test('an office that requires two-factor sign-in: a member without it sets it up before anything else', async () => {
    const admin = await createTestUser(db, 'strict');
    await db.prisma.user.update({ where: { id: admin.id }, data: { role: 'admin' } });
    const member = { email: `member@${admin.domain}`, password: 'a member password' };
    await createUser(db, { officeId: admin.officeId, email: member.email, displayName: 'Member', password: member.password });

    await withPage(async (page) => {
      await signIn(page, admin.email, admin.password);
      await page.goto(`${platform.webmailUrl}/#/admin/office`);
      const saved = page.waitForResponse((response) => response.url().endsWith('/v2/admin/office') && response.request().method() === 'PATCH');
      await page.getByLabel('Require two-factor sign-in for everyone').check();
      assert.equal((await saved).status(), 200);
      assert.equal(await page.getByLabel('Require two-factor sign-in for everyone').isChecked(), true);
    });

    await withPage(async (page) => {
      await submitSignIn(page, member.email, member.password);
      await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      const secret = ((await page.locator('.totp-secret').textContent()) ?? '').trim();
      await page.getByLabel('Code from the app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await inboxLink(page).waitFor();
    });
  });

  test('no script errors on the pages', () => {
    assert.deepEqual(pageErrors, []);
  });
});
