import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, waitFor, type TestUser } from '@letterbox/testing';
import { desktopContext, launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';

interface SmtpMessages {
  total: number;
  items: Array<{ raw?: string }>;
}

/**
 * Identities in compose, in Chromium: a user whose alias has a name and a signature of its own (set in Settings)
 * answers a mail sent to the alias, and the answer leaves from the alias, under its name, signed above the quote.
 */
describe('identities in compose in a real browser', { timeout: 10 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  let user: TestUser;
  let alias: string;
  const pageErrors: string[] = [];
  const screenshots: string[] = [];

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'mina');
    // What the admin API's alias is: an addresses row of the user's.
    alias = `sales@${user.domain}`;
    await db.prisma.address.create({ data: { address: alias, officeId: user.officeId, kind: 'alias', userId: user.id } });
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'identities-logs')).catch(() => undefined);
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

  /** Over the ingest's SMTP port, as anyone on the internet can. */
  async function deliverFromOutside(from: string, to: string, subject: string, text: string): Promise<void> {
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: platform.ingestSmtpPort, secure: false, ignoreTLS: true });
    try {
      await smtp.sendMail({ from, to, subject, text });
    } finally {
      smtp.close();
    }
  }

  const delivered = async (to: string) =>
    (await (await fetch(`${platform.mockProvidersUrl}/smtp/messages?to=${encodeURIComponent(to)}&raw=1`)).json()) as SmtpMessages;

  test('a reply to a mail sent to an alias goes from the alias, under its name, with its signature above the quote', async () => {
    const client = `client-${randomUUID().slice(0, 8)}@outside.example`;
    const subject = `Price list ${randomUUID().slice(0, 6)}`;
    const signature = 'Mina Park\nSales desk, Letterbox';
    await deliverFromOutside(`Client <${client}>`, `Sales <${alias.toUpperCase()}>`, subject, 'Could you send the price list?');

    const context = await desktopContext(browser);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(platform.webmailUrl);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Settings' }).click();
      const identity = page.getByRole('region', { name: 'Addresses and signatures' }).getByRole('form', { name: alias });
      await identity.getByLabel('Name').fill('Sales desk');
      await identity.getByLabel('Signature', { exact: true }).fill(signature);
      await identity.getByRole('button', { name: 'Save' }).click();
      await identity.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.goto(platform.webmailUrl);

      // A new mail is from the primary address, under the user's name.
      await page.getByRole('button', { name: /Compose/ }).click();
      const newMessage = page.getByRole('dialog', { name: 'New message' });
      const newFrom = newMessage.getByLabel('From', { exact: true });
      await newFrom.locator('option', { hasText: `${user.displayName} <${user.email}>` }).waitFor({ state: 'attached' });
      assert.equal(await newFrom.inputValue(), user.email);
      // Chosen as From, the alias brings its signature into the rich editor; the primary, without one, takes it out.
      const editor = newMessage.getByRole('textbox', { name: 'Message' });
      await newFrom.selectOption(alias);
      await editor.locator('.signature', { hasText: 'Mina Park' }).waitFor();
      assert.match(await editor.innerHTML(), /^<div><br><\/div><div class="signature">-- <br>Mina Park<br>Sales desk, Letterbox<\/div>$/);
      await newFrom.selectOption(user.email);
      await editor.locator('.signature').waitFor({ state: 'detached' });
      await newMessage.getByRole('button', { name: 'Close', exact: true }).click();

      await page.locator('.mail-row', { hasText: subject }).click({ timeout: 60_000 });
      const pane = page.getByRole('region', { name: 'Reading pane' });
      await pane.getByRole('heading', { name: subject }).waitFor();
      await pane.getByRole('button', { name: 'Reply', exact: true }).click();

      const reply = page.getByRole('dialog', { name: 'Reply' });
      const from = reply.getByLabel('From', { exact: true });
      const body = reply.getByRole('textbox', { name: 'Message' });
      await waitFor(async () => (await from.inputValue()) === alias || undefined, { what: 'the alias chosen as From', timeoutMs: 10_000 });
      assert.equal((await from.locator('option:checked').textContent())?.trim(), `Sales desk <${alias}>`);
      assert.match(await body.inputValue(), /^\n\n-- \nMina Park\nSales desk, Letterbox\n\nOn .* wrote:\n> Could you send the price list\?/);

      // Another identity swaps the untouched signature: the primary has none; the alias brings its own back.
      await from.selectOption(user.email);
      assert.doesNotMatch(await body.inputValue(), /Mina Park/);
      await from.selectOption(alias);
      assert.match(await body.inputValue(), /^\n\n-- \nMina Park\nSales desk, Letterbox\n\nOn /);

      await body.press('Control+Home');
      await body.pressSequentially('Here is the price list.');
      await reply.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await screenshot(page, 'reply-from-alias');

      // The draft kept on the server keeps its identity when reopened.
      await reply.getByRole('button', { name: 'Close', exact: true }).click();
      await page
        .getByRole('navigation', { name: 'Mailboxes' })
        .getByRole('link', { name: /Drafts/ })
        .click();
      await page.locator('.mail-row', { hasText: `Re: ${subject}` }).click();
      await pane.getByRole('button', { name: 'Edit draft' }).click();
      await reply.waitFor();
      await waitFor(async () => (await from.inputValue()) === alias || undefined, { what: 'the reopened draft from the alias', timeoutMs: 10_000 });

      await reply.getByLabel('Undo for').selectOption('0');
      await reply.getByRole('button', { name: 'Send' }).click();
      await reply.waitFor({ state: 'detached' });
      await page
        .getByRole('region', { name: 'Sending' })
        .locator('.send-item', { hasText: subject })
        .locator('[data-status="sent"]')
        .waitFor({ timeout: 60_000 });
    } finally {
      await context.close();
    }

    const answers = await delivered(client);
    assert.equal(answers.total, 1);
    const answer = await simpleParser(Buffer.from(answers.items[0].raw ?? '', 'base64'));
    assert.deepEqual(answer.from?.value, [{ address: alias, name: 'Sales desk' }]);
    const text = answer.text ?? '';
    const [written, signed, quoted] = ['Here is the price list.', `-- \n${signature}\n`, '> Could you send the price list?'].map((part) => text.indexOf(part));
    assert.ok(written === 0 && written < signed && signed < quoted, `the answer, then the signature, then the quote:\n${text}`);
  });

  test('a bold signature set in Settings goes out in the HTML part of a rich mail, and as text in its text part', async () => {
    const colleague = `partner-${randomUUID().slice(0, 8)}@outside.example`;
    const subject = `Quarterly figures ${randomUUID().slice(0, 6)}`;
    const context = await desktopContext(browser);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(platform.webmailUrl);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Settings' }).click();
      const identity = page.getByRole('region', { name: 'Addresses and signatures' }).getByRole('form', { name: user.email });
      await identity.getByLabel('Formatted signature').check();
      const editor = identity.getByRole('textbox', { name: 'Signature', exact: true });
      await editor.click();
      await identity.getByRole('button', { name: 'Bold' }).click();
      await editor.pressSequentially('Mina Park');
      await identity.getByRole('button', { name: 'Bold' }).click();
      await editor.pressSequentially(', Letterbox');
      // The plain-text version follows the formatted one while the user leaves it alone.
      const plain = identity.getByLabel('Plain-text signature');
      await waitFor(async () => (await plain.inputValue()) === 'Mina Park, Letterbox' || undefined, { what: 'the text version in step', timeoutMs: 10_000 });
      await identity.getByRole('button', { name: 'Save' }).click();
      await identity.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await screenshot(page, 'formatted-signature');
      await page.goto(platform.webmailUrl);

      await page.getByRole('button', { name: /Compose/ }).click();
      const dialog = page.getByRole('dialog', { name: 'New message' });
      const body = dialog.getByRole('textbox', { name: 'Message' });
      await body.locator('.signature b', { hasText: 'Mina Park' }).waitFor();
      await dialog.getByLabel('To', { exact: true }).fill(colleague);
      await dialog.getByLabel('Subject').fill(subject);
      await body.click();
      await body.press('Control+Home');
      await body.pressSequentially('The figures are attached.');
      await dialog.getByLabel('Undo for').selectOption('0');
      await dialog.getByRole('button', { name: 'Send' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page
        .getByRole('region', { name: 'Sending' })
        .locator('.send-item', { hasText: subject })
        .locator('[data-status="sent"]')
        .waitFor({ timeout: 60_000 });
    } finally {
      await context.close();
    }

    const sent = await delivered(colleague);
    assert.equal(sent.total, 1);
    const mail = await simpleParser(Buffer.from(sent.items[0].raw ?? '', 'base64'));
    assert.match(String(mail.html), /<div class="signature">-- <br><(b|strong)>Mina Park<\/\1>, Letterbox<\/div>/);
    assert.match(mail.text ?? '', /^The figures are attached\.\s*\n-- \nMina Park, Letterbox$/);
  });

  test('no script errors on the pages', () => {
    assert.deepEqual(pageErrors, []);
  });
});
