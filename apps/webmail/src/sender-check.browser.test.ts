import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { createColleagueOf, createTestUser, login, testDatabase, waitFor, type TestUser } from '@letterbox/testing';
import { desktopContext, launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';

interface Listed {
  id: number;
  subject: string;
}

/**
 * Who sent a mail, as the reader sees it in Chromium: a mail from the internet whose From is a colleague's address
 * lands in Spam and opens under a warning; an ordinary mail from outside opens with none.
 */
describe('the sender checks in a real browser', { timeout: 10 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  let bob: TestUser;
  let alice: string;
  const pageErrors: string[] = [];
  const screenshots: string[] = [];

  before(async () => {
    db = testDatabase();
    bob = await createTestUser(db, 'bob');
    alice = (await createColleagueOf(db, bob, 'alice')).email;
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'sender-check-logs')).catch(() => undefined);
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

  /** Over the ingest's SMTP port, as anyone on the internet can: no credentials, an outside envelope sender. */
  async function deliverFromOutside(from: string, subject: string, text: string): Promise<void> {
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: platform.ingestSmtpPort, secure: false, ignoreTLS: true });
    try {
      await smtp.sendMail({ envelope: { from: 'mailer@outside.example', to: bob.email }, from, to: bob.email, subject, text });
    } finally {
      smtp.close();
    }
  }

  /** The mail of that subject in bob's mailbox of that role, once the ingest has stored it. */
  async function storedIn(token: string, role: string, subject: string): Promise<Listed> {
    const get = async (url: string) => (await fetch(`${platform.readApiUrl}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
    const mailboxes = (await get('/v2/mailboxes')) as { items: Array<{ id: number; role: string }> };
    const mailbox = mailboxes.items.find((candidate) => candidate.role === role);
    assert.ok(mailbox, `bob has a ${role} mailbox`);
    return waitFor(
      async () => ((await get(`/v2/mails?mailboxId=${mailbox.id}&limit=50`)) as { items: Listed[] }).items.find((mail) => mail.subject === subject),
      { what: `“${subject}” in bob's ${role} mailbox`, timeoutMs: 60_000 },
    );
  }

  const openMailbox = async (page: Page, name: string) => {
    await page
      .getByRole('navigation', { name: 'Mailboxes' })
      .getByRole('link', { name: new RegExp(`^\\S*\\s*${name}`) })
      .click();
    await page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) }).waitFor();
  };

  async function openMail(page: Page, subject: string): Promise<void> {
    await page.locator('.mail-row', { hasText: subject }).click();
    await page.getByRole('region', { name: 'Reading pane' }).getByRole('heading', { name: subject }).waitFor();
  }

  test("a colleague's address on mail from outside: in Spam, opened under a warning; an ordinary outside mail: no warning", async () => {
    const forged = `Please wire the money today ${randomUUID().slice(0, 6)}`;
    const ordinary = `Minutes of the meeting ${randomUUID().slice(0, 6)}`;
    await deliverFromOutside(`Alice Kim <${alice}>`, forged, 'Bob, please wire 40,000 EUR to the account below before noon.');
    await deliverFromOutside('Someone Outside <someone@outside.example>', ordinary, 'The minutes are below.');

    const token = await login(platform.readApiUrl, bob.email, bob.password);
    const forgedMail = await storedIn(token, 'spam', forged);
    await storedIn(token, 'inbox', ordinary);
    const detail = (await (await fetch(`${platform.readApiUrl}/v2/mails/${forgedMail.id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      authentication: { sender: string } | null;
    };
    assert.equal(detail.authentication?.sender, 'forged-colleague');

    const context = await desktopContext(browser);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(platform.webmailUrl);
      await page.getByLabel('Email').fill(bob.email);
      await page.getByLabel('Password', { exact: true }).fill(bob.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const pane = page.getByRole('region', { name: 'Reading pane' });

      await openMailbox(page, 'Spam');
      await openMail(page, forged);
      const warning = pane.getByRole('alert').filter({ hasText: `This message claims to be from ${alice} but did not come from your organisation` });
      await warning.waitFor();
      assert.ok(await warning.isVisible());
      assert.equal(await pane.getByRole('img', { name: /^Verified sender/ }).count(), 0, 'no verified mark on it');
      await screenshot(page, 'forged-colleague-warning');

      await openMailbox(page, 'Inbox');
      await openMail(page, ordinary);
      assert.equal(await pane.locator('.sender-warning').count(), 0, 'no warning on an ordinary outside mail');
      assert.equal(await pane.getByText(/did not come from your organisation|failed its sender's checks/).count(), 0);
    } finally {
      await context.close();
    }
  });

  test('no script errors on the pages', () => {
    assert.deepEqual(pageErrors, []);
  });
});
