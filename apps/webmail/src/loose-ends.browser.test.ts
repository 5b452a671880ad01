import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, login, testBlobStore, testDatabase, waitFor, type TestUser } from '@letterbox/testing';
import { desktopContext, launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { chooseListFilter } from './testing/list-filters';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';
import { plainEml } from './testing/test-mail';

interface Listed {
  id: number;
  subject: string;
}

/** A message of a conversation: each answers the one before it. */
function threadEml(index: number, to: string): Buffer {
  const id = (n: number) => `<thread-${n}@loose-ends.test>`;
  const answers = index > 1 ? [`In-Reply-To: ${id(index - 1)}`, `References: ${Array.from({ length: index - 1 }, (_, n) => id(n + 1)).join(' ')}`] : [];
  return Buffer.from(
    [
      `From: Member ${index} <member${index}@example.test>`,
      `To: ${to}`,
      `Subject: ${index > 1 ? 'Re: ' : ''}Seating plan`,
      `Date: ${new Date(Date.now() - (10 - index) * 60_000).toUTCString()}`,
      `Message-ID: ${id(index)}`,
      ...answers,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Message ${index} about the seating plan.`,
      '',
    ].join('\r\n'),
  );
}

/** How long a Sent copy may take to be stored on a busy machine (the sweep stores it after a minute at the latest). */
const COPY_MS = 90_000;
const LONG_FOLDER = 'Correspondence with the regional planning committee 2026';
const HIDDEN_WORD = 'quillwort';

/**
 * The loose ends a new user found in the webmail (issue 33), each checked in Chromium:
 * one platform and one signed-in page shared by short tests.
 */
describe('the webmail’s loose ends in a real browser', { timeout: 10 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: TestUser;
  let token: string;
  const pageErrors: string[] = [];

  const api = async <T>(url: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${platform.readApiUrl}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    });
    assert.ok(response.ok, `${url}: ${response.status}`);
    return (await response.json()) as T;
  };
  const subjectsIn = async (mailboxId: number) =>
    (await api<{ items: Listed[] }>(`/v2/mails?mailboxId=${mailboxId}&limit=100`)).items.map((mail) => mail.subject);
  const countIn = async (mailboxId: number, subject: string) => (await subjectsIn(mailboxId)).filter((one) => one === subject).length;

  const openMailbox = async (name: string) => {
    await page
      .getByRole('navigation', { name: 'Mailboxes' })
      .getByRole('link', { name: new RegExp(`^\\S*\\s*${name}`) })
      .click();
    await page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) }).waitFor();
  };

  async function compose(subject: string, to: string): Promise<ReturnType<Page['getByRole']>> {
    await page.getByRole('button', { name: /Compose/ }).click();
    const dialog = page.getByRole('dialog', { name: 'New message' });
    await dialog.getByLabel('To', { exact: true }).fill(to);
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByLabel('Rich text').uncheck();
    await dialog.getByRole('textbox', { name: 'Message' }).fill(`About ${subject}.`);
    return dialog;
  }

  /** Sends what is in the compose window with an undo delay, then undoes it: the window comes back. */
  async function sendAndUndo(dialog: ReturnType<Page['getByRole']>, subject: string): Promise<void> {
    await dialog.getByLabel('Undo for').selectOption('30');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    const item = page.getByRole('region', { name: 'Sending' }).locator('.send-item', { hasText: subject });
    await item.locator('[data-status="queued"]').waitFor();
    await item.getByRole('button', { name: 'Undo' }).click();
    await item.locator('[data-status="cancelled"]').waitFor();
    // The Sent copy, which the undone draft reopens as, is stored by the ingest worker: slow on a busy machine.
    await dialog.waitFor({ timeout: COPY_MS });
    assert.equal(await dialog.getByLabel('Subject').inputValue(), subject);
  }

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'newcomer');
    const blobs = testBlobStore();
    for (const [index, subject] of ['Welcome aboard', 'Lunch on Friday', 'Office keys'].entries()) {
      await storeMail(db, blobs, {
        userId: user.id,
        mailboxId: user.mailboxes.inbox,
        seen: index > 0,
        receivedAt: new Date(Date.now() - (index + 1) * 60_000),
        eml: plainEml({ from: 'Colleague <colleague@example.test>', to: user.email, subject, text: `${subject}: see you soon.` }),
      });
    }
    platform = await startPlatform(await buildSpa());
    token = await login(platform.readApiUrl, user.email, user.password);
    const folder = await api<{ id: number }>('/v2/mailboxes', { method: 'POST', body: JSON.stringify({ name: LONG_FOLDER }) });
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: folder.id,
      seen: true,
      eml: plainEml({ from: 'planner@example.test', to: user.email, subject: 'Filed away', text: `The ${HIDDEN_WORD} survey is attached.` }),
    });
    for (let index = 1; index <= 7; index++) {
      await storeMail(db, blobs, {
        userId: user.id,
        mailboxId: user.mailboxes.inbox,
        seen: true,
        receivedAt: new Date(Date.now() - (10 - index) * 60_000),
        eml: threadEml(index, user.email),
      });
    }
    const locked = await api<{ id: number }>('/v2/mailboxes', { method: 'POST', body: JSON.stringify({ name: 'Private' }) });
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: locked.id,
      seen: true,
      eml: plainEml({ from: 'hr@example.test', to: user.email, subject: 'Salary review', text: 'Confidential.' }),
    });
    await api(`/v2/mailboxes/${locked.id}/lock`, { method: 'POST', body: '{}' });
    browser = await launchChromium();
    context = await desktopContext(browser);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(platform.webmailUrl);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.mail-row', { hasText: 'Welcome aboard' }).waitFor();
  });

  after(async () => {
    if (page) await page.screenshot({ path: path.join(ARTIFACTS, 'loose-ends.png') }).catch(() => undefined);
    await platform?.saveLogs(path.join(ARTIFACTS, 'loose-ends-logs')).catch(() => undefined);
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
    assert.deepEqual(pageErrors, [], 'no script errors in the page');
  });

  test('undo send, then Discard or send again: no copy is left in Drafts', async () => {
    const discarded = `Undone then discarded ${randomUUID().slice(0, 6)}`;
    let dialog = await compose(discarded, `friend.${randomUUID().slice(0, 6)}@recipients.test`);
    await sendAndUndo(dialog, discarded);
    await waitFor(async () => (await countIn(user.mailboxes.drafts, discarded)) === 1, { what: 'the undone send back in Drafts, once', timeoutMs: COPY_MS });
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await waitFor(async () => (await countIn(user.mailboxes.drafts, discarded)) === 0, { what: 'the discarded draft gone from Drafts', timeoutMs: COPY_MS });

    const resent = `Undone then sent ${randomUUID().slice(0, 6)}`;
    dialog = await compose(resent, `friend.${randomUUID().slice(0, 6)}@recipients.test`);
    await sendAndUndo(dialog, resent);
    await dialog.getByLabel('Undo for').selectOption('0');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(async () => (await countIn(user.mailboxes.sent, resent)) === 1, { what: 'the send again in Sent', timeoutMs: COPY_MS });
    assert.equal(await countIn(user.mailboxes.drafts, resent), 0, 'nothing of it left in Drafts');
  });

  test('Send later: a time picker schedules the mail; the scheduled mail is listed and its cancel returns it to Drafts', async () => {
    // The sends before it, dismissed: the line they take at the foot of the window is the Scheduled list's.
    const tracker = page.getByRole('region', { name: 'Sending' });
    const dismiss = tracker.getByRole('button', { name: 'Dismiss' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    const subject = `Scheduled ${randomUUID().slice(0, 6)}`;
    const dialog = await compose(subject, `friend.${randomUUID().slice(0, 6)}@recipients.test`);
    const inTwoHours = await page.evaluate(() => {
      const at = new Date(Date.now() + 2 * 3600_000);
      return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    });
    await dialog.getByLabel('Send later').fill(inTwoHours);
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.waitFor({ state: 'detached' });
    const scheduled = page.getByRole('region', { name: 'Scheduled' });
    const listed = scheduled.getByRole('listitem').filter({ hasText: subject });
    await listed.waitFor();
    assert.equal(await listed.locator('time').getAttribute('datetime'), new Date(inTwoHours).toISOString());
    await listed.getByRole('button', { name: `Cancel “${subject}”` }).click();
    await listed.waitFor({ state: 'detached' });
    await waitFor(async () => (await countIn(user.mailboxes.drafts, subject)) === 1, { what: 'the cancelled scheduled mail in Drafts', timeoutMs: COPY_MS });
  });

  test('a draft with an unfinished address is saved without it, and says so', async () => {
    const subject = `Half addressed ${randomUUID().slice(0, 6)}`;
    const dialog = await compose(subject, 'bob@exa');
    await dialog.getByRole('status').filter({ hasText: 'Draft saved without bob@exa: not a complete address yet' }).waitFor();
    await waitFor(async () => (await countIn(user.mailboxes.drafts, subject)) === 1, { what: 'the draft in Drafts', timeoutMs: COPY_MS });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('c opens a new message even while a reply is kept; a long folder name stops short of its buttons', async () => {
    await page.locator('.mail-row', { hasText: 'Lunch on Friday' }).click();
    await page.getByRole('region', { name: 'Reading pane' }).getByRole('heading', { name: 'Lunch on Friday' }).waitFor();
    await page.locator('body').press('r');
    const reply = page.getByRole('dialog', { name: 'Reply' });
    await reply.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
    await reply.getByRole('button', { name: 'Close', exact: true }).click();
    await page.locator('body').press('c');
    const fresh = page.getByRole('dialog', { name: 'New message' });
    await fresh.waitFor();
    assert.equal(await fresh.getByLabel('Subject').inputValue(), '');
    await fresh.getByRole('button', { name: 'Close', exact: true }).click();

    const item = page.locator('.mailbox-item', { hasText: LONG_FOLDER });
    const name = await item.locator('.mailbox-name').boundingBox();
    const rename = await item.getByRole('button', { name: `Rename ${LONG_FOLDER}` }).boundingBox();
    assert.ok(name && rename);
    assert.ok(name.x + name.width <= rename.x, `the name ends at ${name.x + name.width}, the rename button starts at ${rename.x}`);
  });

  test('a locked folder opens again with the password, typed in the webmail', async () => {
    await page
      .getByRole('navigation', { name: 'Mailboxes' })
      .getByRole('link', { name: /Private/ })
      .click();
    await page.getByText('Private is locked').waitFor();
    await page.getByLabel('Your password').fill('not my password');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Your password').fill(user.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.locator('.mail-row', { hasText: 'Salary review' }).waitFor();
    await openMailbox('Inbox');
  });

  test('on a phone, the open mail’s body is in sight, and its long conversation follows one line a message', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });
    phone.setDefaultTimeout(30_000);
    const tab = await phone.newPage();
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await tab.goto(platform.webmailUrl);
      await tab.getByLabel('Email').fill(user.email);
      await tab.getByLabel('Password', { exact: true }).fill(user.password);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.locator('.mail-row', { hasText: 'Re: Seating plan' }).first().click();
      const pane = tab.getByRole('region', { name: 'Reading pane' });
      await pane.getByRole('heading', { name: '7 messages in this conversation' }).waitFor();
      const body = await pane.locator('iframe[title="Message body"], .mail-text').last().boundingBox();
      assert.ok(body && body.y < 844, `the open mail's body starts at ${body?.y} px on an 844 px screen`);
      const first = pane.getByRole('button', { name: /Member 1/ });
      assert.equal(await first.getAttribute('aria-expanded'), 'false');
      await first.click();
      assert.equal(await first.getAttribute('aria-expanded'), 'true');
    } finally {
      await phone.close();
    }
  });

  test('the app fills the viewport: a wheel over the sidebar or the empty reading pane scrolls no page', async () => {
    await page.locator('body').press('Escape');
    await page.getByText('Select a mail to read it.').waitFor();
    const size = await page.evaluate(() => ({ page: document.documentElement.scrollHeight, window: window.innerHeight }));
    assert.ok(size.page <= size.window, `the page is ${size.page} px tall in a ${size.window} px window`);
    for (const region of ['Mailboxes', 'Reading pane']) {
      const box = await page.getByRole(region === 'Mailboxes' ? 'navigation' : 'region', { name: region }).boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 2000);
    }
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not move');
  });

  test('search looks in every folder, the folder a visible filter to add and remove; ? opens the shortcuts; no Mark all as read over an empty list', async () => {
    await openMailbox('Inbox');
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    await search.fill(HIDDEN_WORD);
    await search.press('Enter');
    await page.locator('.mail-row', { hasText: 'Filed away' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'In all folders' }).waitFor();
    await page.getByRole('button', { name: 'Only in Inbox' }).click();
    await page.locator('.mail-row').first().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Search every folder, not only Inbox' }).click();
    await page.locator('.mail-row', { hasText: 'Filed away' }).waitFor();
    await search.fill('');
    await page.locator('.mail-row', { hasText: 'Welcome aboard' }).waitFor();

    await page.getByRole('button', { name: 'Mark all as read' }).waitFor();
    await chooseListFilter(page, 'Flagged');
    await page.locator('.mail-row').first().waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: 'Mark all as read' }).count(), 0, 'nothing listed to mark');
    await chooseListFilter(page, 'Flagged');

    const help = page.locator('details.shortcut-help');
    assert.equal(await help.getAttribute('open'), null);
    await page.locator('body').press('?');
    await page.getByText('show or hide these shortcuts').waitFor();
    await page.locator('body').press('?');
    await page.getByText('show or hide these shortcuts').waitFor({ state: 'hidden' });
  });
});
