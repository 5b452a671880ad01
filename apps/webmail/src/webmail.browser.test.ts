import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { buildSpa } from './testing/build-spa';
import { chooseListFilter } from './testing/list-filters';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';
import { plainEml, seedInbox, type SeededMail } from './testing/test-mail';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

interface SmtpMessages {
  total: number;
  items: Array<{ envelope: { to: string[] }; headers: Array<{ name: string; value: string }>; raw?: string }>;
}

/** A server on another origin standing in for a newsletter's image host; it counts what the browser asks of it. */
function startRemoteImageHost(): Promise<{ url: string; requests: () => number; firstRequest: Promise<void>; close(): Promise<void> }> {
  let requests = 0;
  let requested: () => void = () => undefined;
  const firstRequest = new Promise<void>((resolve) => (requested = resolve));
  const server = http.createServer((_request, response) => {
    requests += 1;
    requested();
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG_1X1.length });
    response.end(PNG_1X1);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}/pixel.png`,
        requests: () => requests,
        firstRequest,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe('webmail in a real browser', { timeout: 10 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: TestUser;
  let seeded: SeededMail;
  let remoteHost: Awaited<ReturnType<typeof startRemoteImageHost>>;
  const screenshots: string[] = [];
  const pageErrors: string[] = [];

  async function screenshot(target: Page, name: string): Promise<void> {
    const file = path.join(ARTIFACTS, `${name}.png`);
    await target.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  }

  async function signIn(target: Page, email = user.email, password = user.password): Promise<void> {
    await target.getByLabel('Email').fill(email);
    await target.getByLabel('Password').fill(password);
    await target.getByRole('button', { name: 'Sign in' }).click();
    await target.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Inbox/ }).waitFor();
  }

  const unreadInbox = async (target: Page = page): Promise<number> => {
    const badge = target.getByTestId('unread-inbox');
    return (await badge.count()) ? Number.parseInt((await badge.textContent()) ?? '0', 10) : 0;
  };

  const openMailbox = async (name: string) => {
    await page
      .getByRole('navigation', { name: 'Mailboxes' })
      .getByRole('link', { name: new RegExp(`^\\S*\\s*${name}`) })
      .click();
    await page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) }).waitFor();
  };

  const row = (subject: string, target: Page = page) => target.locator('.mail-row', { hasText: subject });

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'reader');
    remoteHost = await startRemoteImageHost();
    seeded = await seedInbox(db, testBlobStore(), user, remoteHost.url);
    const [staticDir] = await Promise.all([buildSpa()]);
    platform = await startPlatform(staticDir);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    context = await browser.newContext({ viewport: { width: 1366, height: 860 }, acceptDownloads: true, locale: 'en-US' });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'logs')).catch(() => undefined);
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await remoteHost?.close();
    await db?.close();
    for (const file of screenshots) console.log(`screenshot: ${path.relative(process.cwd(), file)}`);
  });

  test('the webmail answers health (ready when both APIs answer); metrics on its ops port only', async () => {
    assert.equal((await fetch(`${platform.webmailUrl}/health/live`)).status, 200);
    const ready = await fetch(`${platform.webmailUrl}/health/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(Object.keys(((await ready.json()) as { info: object }).info).sort(), ['read-api', 'send-api']);
    const publicMetrics = await fetch(`${platform.webmailUrl}/metrics`);
    assert.equal(publicMetrics.status, 404);
    assert.doesNotMatch(await publicMetrics.text(), /process_cpu_seconds_total/);
    assert.match(await (await fetch(`${platform.webmailOpsUrl}/metrics`)).text(), /process_cpu_seconds_total\{app="webmail"\}/);
    assert.equal((await fetch(`${platform.webmailOpsUrl}/health/ready`)).status, 200);
  });

  test('the SPA is served with a strict content security policy', async () => {
    const response = await fetch(platform.webmailUrl);
    assert.equal(response.status, 200);
    const policy = response.headers.get('content-security-policy') ?? '';
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /img-src 'self' data: blob:/);
    assert.match(policy, /frame-src 'self' blob: about:/);
    assert.doesNotMatch(policy, /https?:|\*/, 'nothing remote is allowed');
  });

  test('sign in: the inbox lists mail with unread counts', async () => {
    await page.goto(platform.webmailUrl);
    await page.getByRole('heading', { name: /Letterbox/ }).waitFor();
    await screenshot(page, 'sign-in');

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is wrong.' }).waitFor();

    await signIn(page);
    await row(seeded.report.subject).waitFor();
    assert.equal(await unreadInbox(), 2, 'the report and the newsletter are unread');
    // The rows are drawn a screenful at a time; the page holds fifty, and no more come until asked for.
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 50);
    assert.equal(await page.locator('.load-more').count(), 1, 'one page at first');
    await screenshot(page, 'inbox');
  });

  test('the list pages, sorts, filters and searches', async () => {
    await page.locator('.load-more').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 57);

    await chooseListFilter(page, 'Oldest first');
    await page.locator('.mail-row').first().filter({ hasText: 'Everyday note 01' }).waitFor();
    await chooseListFilter(page, 'Newest first');
    await page.locator('.mail-row').first().filter({ hasText: seeded.report.subject }).waitFor();

    await chooseListFilter(page, 'Unread');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 2);
    await chooseListFilter(page, 'Unread');

    await page.locator('body').press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-text', '/ goes to the search box');
    await page.keyboard.type('Everyday note 07');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 1);
    await row('Everyday note 07').waitFor();
    await page.getByRole('searchbox', { name: 'Search mail' }).fill('');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length >= 50);
  });

  test('reading pane: the HTML in a sandboxed frame, attachments with sizes, and a download', async () => {
    await row(seeded.report.subject).click();
    const pane = page.getByRole('region', { name: 'Reading pane' });
    await pane.getByRole('heading', { name: seeded.report.subject }).waitFor();
    const frame = pane.locator('iframe[title="Message body"]');
    assert.equal(await frame.getAttribute('sandbox'), 'allow-popups allow-popups-to-escape-sandbox', 'no scripts, no same origin');
    // The inline image (a cid: part) is shown from a data: URL, loaded.
    await page.frameLocator('iframe[title="Message body"]').locator('img[src^="data:image/png"]').first().waitFor();
    const download = pane.getByRole('button', { name: new RegExp(`Download ${seeded.report.attachment.filename}, \\d+ KB`) });
    await download.waitFor();
    await screenshot(page, 'reading-pane');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    assert.equal(file.suggestedFilename(), seeded.report.attachment.filename);
    const bytes = await readFile((await file.path()) as string);
    assert.ok(bytes.equals(seeded.report.attachment.content), 'the download is byte-identical to the attachment');

    // Opening it read it: one unread left in the inbox.
    await page.waitForFunction(() => document.querySelector('[data-testid="unread-inbox"]')?.textContent?.startsWith('1'));
    assert.equal(await row(seeded.report.subject).locator('xpath=..').getAttribute('class'), 'mail-row-item selected');
  });

  test('flag, and move to another mailbox; the mailbox list is revalidated with its ETag', async () => {
    const revalidation = (status: number) =>
      page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === '/v2/mailboxes' && response.request().headers()['if-none-match'] !== undefined && response.status() === status,
      );
    const unreadBefore = await unreadInbox();
    const pane = page.getByRole('region', { name: 'Reading pane' });
    // A flag changes no count: its event's refresh of the list is answered 304, and the counts stay.
    const unchanged = revalidation(304);
    await pane.getByRole('button', { name: 'Flag', exact: true }).click();
    await pane.getByRole('button', { name: 'Unflag', exact: true }).waitFor();
    await unchanged;
    assert.equal(await unreadInbox(), unreadBefore);
    await row(seeded.report.subject).locator('.flag').waitFor();
    await chooseListFilter(page, 'Flagged');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 1);
    await chooseListFilter(page, 'Flagged');

    await row('Everyday note 55').click();
    await pane.getByRole('heading', { name: 'Everyday note 55' }).waitFor();
    const changed = revalidation(200);
    await pane.getByRole('button', { name: 'Move to' }).click();
    await page.getByRole('menu', { name: 'Move to' }).getByRole('menuitem', { name: 'Spam', exact: true }).click();
    await row('Everyday note 55').waitFor({ state: 'detached' });
    await changed;
    await openMailbox('Spam');
    await row('Everyday note 55').waitFor();
    await openMailbox('Inbox');
  });

  test('remote images stay blocked until the reader asks for them', async () => {
    await row(seeded.remote.subject).click();
    const pane = page.getByRole('region', { name: 'Reading pane' });
    await page.frameLocator('iframe[title="Message body"]').getByRole('heading', { name: 'Monthly news' }).waitFor();
    await pane.getByText('Remote images are blocked').waitFor();
    assert.equal(remoteHost.requests(), 0, 'nothing was fetched from the remote host');
    await pane.getByRole('button', { name: 'Show remote images' }).click();
    await page.frameLocator('iframe[title="Message body"]').locator('body[data-remote-images="shown"]').waitFor();
    await remoteHost.firstRequest;
    assert.ok(remoteHost.requests() > 0, 'the remote image was loaded once asked for');
    await pane.getByRole('button', { name: /Delete/ }).click();
    await row(seeded.remote.subject).waitFor({ state: 'detached' });
  });

  test('compose with an attachment, undo, send again: the status reaches sent and the mock SMTP provider has it', async () => {
    const recipient = `friend.${randomUUID().slice(0, 8)}@recipients.test`;
    const subject = `Hello from the browser ${randomUUID().slice(0, 6)}`;
    await page.getByRole('button', { name: /Compose/ }).click();
    const dialog = page.getByRole('dialog', { name: 'New message' });
    await dialog.getByLabel('To', { exact: true }).fill(recipient);
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByRole('textbox', { name: 'Message' }).fill('Hello! The notes are attached.');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('first line\nsecond line\n') });
    await dialog.getByText('notes.txt').waitFor();
    await dialog.getByLabel('Request read receipt').check();
    await dialog.getByLabel('Undo for').selectOption('30');
    await screenshot(page, 'compose');
    await dialog.getByRole('button', { name: 'Send' }).click();

    const tracker = page.getByRole('region', { name: 'Sending' });
    const firstTry = tracker.locator('.send-item', { hasText: subject }).first();
    await firstTry.locator('[data-status="queued"]').waitFor();
    await firstTry.getByRole('button', { name: 'Undo' }).click();
    await tracker.locator('[data-status="cancelled"]').waitFor();
    // Undone: back in the compose window, as it was, as the draft its Sent copy became (stored by the ingest worker, slow on a busy machine).
    await dialog.waitFor({ timeout: 90_000 });
    assert.equal(await dialog.getByLabel('Subject').inputValue(), subject);
    await dialog.getByText('notes.txt').waitFor();

    await dialog.getByLabel('Undo for').selectOption('0');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await tracker.locator('.send-item', { hasText: subject }).locator('[data-status="sent"]').waitFor({ timeout: 60_000 });

    const delivered = (await (await fetch(`${platform.mockProvidersUrl}/smtp/messages?to=${encodeURIComponent(recipient)}&raw=1`)).json()) as SmtpMessages;
    assert.equal(delivered.total, 1, 'delivered once: the undone send never went out');
    const mail = await simpleParser(Buffer.from(delivered.items[0].raw ?? '', 'base64'));
    assert.equal(mail.subject, subject);
    assert.deepEqual(
      mail.attachments.map((attachment) => attachment.filename),
      ['notes.txt'],
    );

    // The Sent copy shows who has read it: nobody yet, then the recipient once the receipt image loads.
    await openMailbox('Sent');
    await row(subject).locator('.receipt-badge', { hasText: 'Not read yet' }).waitFor();
    const receiptUrl = /https?:\/\/[^"'\s]+receipt-confirm[^"'\s]+/.exec(String(mail.html))?.[0];
    assert.ok(receiptUrl, 'the delivered mail carries a read receipt image');
    assert.equal((await fetch(receiptUrl.replace(/&amp;/g, '&'))).status, 200);
    await openMailbox('Inbox');
    await openMailbox('Sent');
    await row(subject).locator('.receipt-badge', { hasText: 'Read by 1 of 1' }).waitFor();
    await row(subject).click();
    await page.getByRole('region', { name: 'Read receipts' }).getByText(recipient).waitFor();
    await openMailbox('Inbox');
  });

  test('keyboard: j and k step through the mail, Escape goes back to the list, where they move the cursor and Enter opens', async () => {
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('j');
    await page.waitForFunction(() => location.hash.includes('/mail/'));
    const first = await page.evaluate(() => location.hash);
    await page.keyboard.press('j');
    await page.waitForFunction((previous) => location.hash.includes('/mail/') && location.hash !== previous, first);
    await page.keyboard.press('k');
    await page.waitForFunction((previous) => location.hash === previous, first);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !location.hash.includes('/mail/'));
    // Back in the list, on the row of the mail that was open (focused on the next frame): j moves the cursor on without opening it.
    await page.waitForFunction((previous) => (document.activeElement as HTMLElement | null)?.dataset.mailId === previous.split('/mail/')[1], first);
    await page.keyboard.press('j');
    assert.doesNotMatch(await page.evaluate(() => location.hash), /\/mail\//);
    await page.keyboard.press('Enter');
    await page.waitForFunction((previous) => location.hash.includes('/mail/') && location.hash !== previous, first);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !location.hash.includes('/mail/'));
  });

  test('a mail injected through the ingest API appears without reloading, and the unread count goes up', async () => {
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    await row(seeded.report.subject).waitFor();
    const before = await unreadInbox();
    const subject = `Fresh from the gateway ${randomUUID().slice(0, 6)}`;
    const response = await fetch(`${platform.ingestUrl}/v2/inbound?to=${encodeURIComponent(user.email)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.ingestToken}`, 'content-type': 'message/rfc822' },
      body: new Uint8Array(plainEml({ from: 'Gateway Sender <sender@outside.test>', to: user.email, subject, text: 'Delivered while you watched.' })),
    });
    assert.equal(response.status, 202, await response.text());
    // Shown by the event stream (without it, the webmail only polls every 30 s).
    await page.locator('.live-live').waitFor();
    await row(subject).waitFor();
    await page.waitForFunction((count) => Number.parseInt(document.querySelector('[data-testid="unread-inbox"]')?.textContent ?? '0', 10) > count, before);
    assert.equal(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage), true, 'the page was not reloaded');
  });

  const delivered = async (to: string) =>
    (await (await fetch(`${platform.mockProvidersUrl}/smtp/messages?to=${encodeURIComponent(to)}&raw=1`)).json()) as SmtpMessages;

  async function sendFromDialog(dialogName: string, subject: string): Promise<void> {
    const dialog = page.getByRole('dialog', { name: dialogName });
    await dialog.getByLabel('Undo for').selectOption('0');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('region', { name: 'Sending' })
      .locator('.send-item', { hasText: subject })
      .locator('[data-status="sent"]')
      .waitFor({ timeout: 60_000 });
  }

  test('reply (r) and forward reach the provider with their headers and attachments; the reply joins the conversation', async () => {
    const report = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(seeded.report.id) } });
    await openMailbox('Inbox');
    await row(seeded.report.subject).click();
    const pane = page.getByRole('region', { name: 'Reading pane' });
    await pane.getByRole('heading', { name: seeded.report.subject }).waitFor();
    await page.locator('body').press('r');
    const reply = page.getByRole('dialog', { name: 'Reply' });
    await reply.waitFor();
    assert.equal(await reply.getByLabel('To', { exact: true }).inputValue(), report.fromAddress);
    assert.equal(await reply.getByLabel('Subject').inputValue(), `Re: ${seeded.report.subject}`);
    assert.match(await reply.getByRole('textbox', { name: 'Message' }).inputValue(), /wrote:\n> /, 'the original is quoted');
    await reply.getByRole('textbox', { name: 'Message' }).press('Control+Home');
    await reply.getByRole('textbox', { name: 'Message' }).pressSequentially('Thanks, received.');
    await screenshot(page, 'reply');
    await sendFromDialog('Reply', `Re: ${seeded.report.subject}`);

    const [answer] = (await delivered(report.fromAddress)).items;
    const replied = await simpleParser(Buffer.from(answer.raw ?? '', 'base64'));
    assert.equal(replied.inReplyTo, report.messageId);
    assert.ok([replied.references].flat().includes(report.messageId));
    assert.match(replied.text ?? '', /^Thanks, received\./);

    const colleague = `colleague.${randomUUID().slice(0, 8)}@recipients.test`;
    await row(seeded.report.subject).click();
    await pane.getByRole('button', { name: 'Forward' }).click();
    const forward = page.getByRole('dialog', { name: 'Forward' });
    await forward.getByLabel('To', { exact: true }).fill(colleague);
    await sendFromDialog('Forward', `Fwd: ${seeded.report.subject}`);
    const forwarded = await simpleParser(Buffer.from((await delivered(colleague)).items[0].raw ?? '', 'base64'));
    assert.equal(forwarded.subject, `Fwd: ${seeded.report.subject}`);
    const file = forwarded.attachments.find((attachment) => attachment.filename === seeded.report.attachment.filename);
    assert.ok(file?.content.equals(seeded.report.attachment.content), 'the original attachment, byte for byte, without uploading it again');

    // The original is flagged as answered, and its conversation holds the reply and the forward, once their Sent
    // copies are stored (on a busy machine, as late as the outbox sweep a minute on).
    await openMailbox('Sent');
    for (const subject of [`Re: ${seeded.report.subject}`, `Fwd: ${seeded.report.subject}`]) await row(subject).waitFor({ timeout: 90_000 });
    await openMailbox('Inbox');
    await row(seeded.report.subject).locator('.answered').waitFor();
    await row(seeded.report.subject).locator('.forwarded').waitFor();
    await row(seeded.report.subject).click();
    const conversation = pane.getByRole('region', { name: 'Conversation' });
    await conversation.getByRole('heading', { name: '3 messages in this conversation' }).waitFor();
    await conversation
      .getByRole('button', { name: /Test reader/ })
      .first()
      .click();
    await conversation.getByText('Thanks, received.').waitFor();
    await screenshot(page, 'conversation');

    await chooseListFilter(page, 'Conversations');
    await page.locator('.mail-row', { hasText: seeded.report.subject }).locator('.thread-count', { hasText: '3' }).waitFor();
    await chooseListFilter(page, 'Conversations');
  });

  test('search finds a mail by a word in its body, in English and in Korean, and marks the word', async () => {
    const blobs = testBlobStore();
    const inbox = user.mailboxes.inbox;
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: inbox,
      eml: plainEml({ from: 'ann@example.test', to: user.email, subject: 'Garden', text: 'The zephyrine roses bloomed early this year.' }),
    });
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: inbox,
      eml: plainEml({ from: 'jiwoo@example.test', to: user.email, subject: '보고', text: '분기별 예산안을 검토했습니다. 회의는 내일입니다.' }),
    });
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    for (const [word, subject] of [
      ['zephyrine', 'Garden'],
      ['예산안', '보고'],
    ]) {
      await search.fill(word);
      await search.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 1);
      await row(subject).locator('mark', { hasText: word }).waitFor();
    }
    await screenshot(page, 'search');
    await search.fill('from:ann zephyrine');
    await search.press('Enter');
    await row('Garden').waitFor();
    await search.fill('');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length >= 50);
  });

  test('recipients autocomplete; a draft is kept on the server while it is written: after a reload it reopens from Drafts', async () => {
    const other = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'en-US' });
    other.setDefaultTimeout(30_000);
    const tab = await other.newPage();
    try {
      await tab.goto(platform.webmailUrl);
      await signIn(tab);
      const subject = `Draft ${randomUUID().slice(0, 6)}`;
      await tab.getByRole('button', { name: /Compose/ }).click();
      const dialog = tab.getByRole('dialog', { name: 'New message' });
      // Recipients are completed from the people the user hears from.
      await dialog.getByLabel('To', { exact: true }).pressSequentially('minj');
      await dialog.getByRole('option', { name: /minjun@example\.test/ }).waitFor();
      await dialog.getByLabel('To', { exact: true }).press('Enter');
      assert.equal(await dialog.getByLabel('To', { exact: true }).inputValue(), 'minjun@example.test, ');
      await dialog.getByLabel('Subject').fill(subject);
      await dialog.getByLabel('Rich text').uncheck();
      await dialog.getByRole('textbox', { name: 'Message' }).fill('Half a thought, kept by the server.');
      await dialog.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await tab.reload();
      await tab.getByRole('dialog', { name: 'New message' }).getByRole('button', { name: 'Close', exact: true }).click();
      await tab
        .getByRole('navigation', { name: 'Mailboxes' })
        .getByRole('link', { name: /Drafts/ })
        .click();
      await row(subject, tab).click();
      await tab.getByRole('region', { name: 'Reading pane' }).getByRole('button', { name: 'Edit draft' }).click();
      const reopened = tab.getByRole('dialog', { name: 'New message' });
      assert.equal(await reopened.getByLabel('Subject').inputValue(), subject);
      assert.equal(await reopened.getByRole('textbox', { name: 'Message' }).inputValue(), 'Half a thought, kept by the server.');
      await screenshot(tab, 'draft-reopened');
      await reopened.getByRole('button', { name: 'Discard' }).click();
      await row(subject, tab).waitFor({ state: 'detached' });
    } finally {
      await other.close();
    }
  });

  test('a folder is made, mail moved into it, the folder renamed and deleted (its mail going to Trash)', async () => {
    const sidebar = page.getByRole('navigation', { name: 'Mailboxes' });
    await openMailbox('Inbox');
    await sidebar.getByRole('button', { name: '+ New folder' }).click();
    await sidebar.getByLabel('Folder name').fill('Projects');
    await sidebar.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 2, name: /^Projects/ }).waitFor();

    await openMailbox('Inbox');
    for (const subject of ['Everyday note 53', 'Everyday note 54']) await page.getByLabel(`Select ${subject}`).check();
    await page.getByRole('toolbar', { name: 'Selected mail' }).getByRole('button', { name: 'Move selected to' }).click();
    await page.getByRole('menu', { name: 'Move selected to' }).getByRole('menuitem', { name: 'Projects' }).click();
    await row('Everyday note 53').waitFor({ state: 'detached' });
    await openMailbox('Projects');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 2);

    await sidebar.getByRole('button', { name: 'Rename Projects' }).click();
    await sidebar.getByLabel('New name').fill('Archive 2026');
    await sidebar.getByRole('button', { name: 'Rename', exact: true }).click();
    await sidebar.getByRole('link', { name: /Archive 2026/ }).waitFor();
    await screenshot(page, 'folders');

    await sidebar.getByRole('button', { name: 'Delete Archive 2026' }).click();
    await sidebar.getByRole('button', { name: 'Delete folder' }).click();
    await sidebar.getByRole('link', { name: /Archive 2026/ }).waitFor({ state: 'detached' });
    await openMailbox('Trash');
    await row('Everyday note 53').waitFor();
    await row('Everyday note 54').waitFor();
    await openMailbox('Inbox');
  });

  test('ticked mails are reported as spam at once; Not spam in the Spam folder brings one back', async () => {
    const bar = page.getByRole('toolbar', { name: 'Selected mail' });
    await openMailbox('Inbox');
    for (const subject of ['Everyday note 51', 'Everyday note 52']) await page.getByLabel(`Select ${subject}`).check();
    await bar.getByRole('button', { name: 'Report spam' }).click();
    await row('Everyday note 52').waitFor({ state: 'detached' });
    await openMailbox('Spam');
    await row('Everyday note 51').waitFor();
    await page.getByLabel('Select Everyday note 52').check();
    await bar.getByRole('button', { name: 'Not spam' }).click();
    await row('Everyday note 52').waitFor({ state: 'detached' });
    await openMailbox('Inbox');
    await row('Everyday note 52').waitFor();
  });

  test('fifty mails ticked (x, then shift-click) are marked read at once, and the unread count follows; then all of them', async () => {
    const blobs = testBlobStore();
    const longAgo = new Date('2020-01-01T00:00:00Z').getTime();
    for (let index = 0; index < 50; index++) {
      const subject = `Batchling ${String(index).padStart(2, '0')}`;
      await storeMail(db, blobs, {
        userId: user.id,
        mailboxId: user.mailboxes.inbox,
        receivedAt: new Date(longAgo + index * 1000),
        eml: plainEml({ from: 'batch@example.test', to: user.email, subject, text: 'one of many' }),
      });
    }
    await page.reload();
    await page.getByRole('navigation', { name: 'Mailboxes' }).getByTestId('unread-inbox').waitFor();
    const before = await unreadInbox();
    assert.ok(before >= 50, `${before} unread`);
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    await search.fill('batchling');
    await search.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length === 50);
    await row('Batchling 49').focus();
    await page.keyboard.press('x');
    await page.getByRole('toolbar', { name: 'Selected mail' }).getByText('1 selected').waitFor();
    await page.getByLabel('Select Batchling 00').click({ modifiers: ['Shift'] });
    const bar = page.getByRole('toolbar', { name: 'Selected mail' });
    await bar.getByText('50 selected').waitFor();
    await screenshot(page, 'fifty-selected');
    await bar.getByRole('button', { name: 'Mark read' }).click();
    await page.waitForFunction(
      (expected) => Number.parseInt(document.querySelector('[data-testid="unread-inbox"]')?.textContent ?? '0', 10) === expected,
      before - 50,
    );
    await page.waitForFunction(() => document.querySelectorAll('.mail-row-item.unread').length === 0);
    await search.fill('');
    await page.waitForFunction(() => document.querySelectorAll('.mail-row').length >= 50);

    const unreadBeforeAll = await unreadInbox();
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByTestId('unread-inbox').waitFor({ state: 'detached' });
    // The server marks them in slices; the line counting them goes once the change is done and the list refreshed.
    await page
      .getByRole('status')
      .filter({ hasText: /^Marking / })
      .waitFor({ state: 'detached' });

    // Undo: exactly those become unread again; then all read once more, as the tests after this one expect.
    const marked = page.getByRole('status').filter({ hasText: `Marked ${unreadBeforeAll} read.` });
    await marked.getByRole('button', { name: 'Undo' }).click();
    await page.waitForFunction(
      (expected) => Number.parseInt(document.querySelector('[data-testid="unread-inbox"]')?.textContent ?? '0', 10) === expected,
      unreadBeforeAll,
    );
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByTestId('unread-inbox').waitFor({ state: 'detached' });
  });

  test('an expired session asks to sign in again and returns to where the user was, draft included', async () => {
    await openMailbox('Sent');
    // The next list request is refused, as it is once the token has expired.
    await page.route(
      (url) => url.pathname === '/v2/mails',
      (route) => route.fulfill({ status: 401, contentType: 'application/problem+json', body: '{"status":401,"detail":"expired"}' }),
      { times: 1 },
    );
    await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Inbox/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Your session has expired' }).waitFor();
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Mailboxes' }).waitFor();
    assert.notEqual(await page.evaluate(() => location.hash), '#/', 'still in the mailbox it was in');

    // A send refused for an expired session keeps the draft for after sign-in.
    await page.getByRole('button', { name: /Compose/ }).click();
    const dialog = page.getByRole('dialog', { name: 'New message' });
    await dialog.getByLabel('To', { exact: true }).fill('later@recipients.test');
    await dialog.getByLabel('Subject').fill('Written before the session ended');
    await page.route(
      (url) => url.pathname === '/v2/mails/send',
      (route) => route.fulfill({ status: 401, contentType: 'application/problem+json', body: '{"status":401}' }),
      { times: 1 },
    );
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your session has expired' }).waitFor();
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('Subject').inputValue(), 'Written before the session ended');
    await dialog.getByRole('button', { name: 'Discard' }).click();

    // A token the API does not accept (after a reload) is the same.
    await page.evaluate(() => {
      const session = JSON.parse(sessionStorage.getItem('letterbox.session') ?? '{}') as { accessToken?: string };
      sessionStorage.setItem('letterbox.session', JSON.stringify({ ...session, accessToken: 'not-a-valid-token' }));
    });
    await openMailbox('Sent');
    const sentHash = await page.evaluate(() => location.hash);
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Your session has expired' }).waitFor();
    await screenshot(page, 'session-expired');
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 2, name: /^Sent/ }).waitFor();
    assert.equal(await page.evaluate(() => location.hash), sentHash, 'back in the mailbox it was in');
  });

  test('no script errors on the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
