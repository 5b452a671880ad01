import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { referenceAttachments } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, unzip, type TestUser } from '@letterbox/testing';
import { launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';

const SUBJECT = `Photos from the offsite ${randomUUID().slice(0, 6)}`;
const BODY = 'Here are the photos and the agenda of the offsite.';
/** The medium reference mail's banner: a real PNG a browser draws. */
const PHOTO = referenceAttachments('medium')[0].content;
const AGENDA = Buffer.from('09:00 Coffee\n10:00 Planning\n');

function mailWithPhoto(to: string): Buffer {
  const part = (type: string, name: string, content: Buffer) => [
    '--b',
    `Content-Type: ${type}; name="${name}"`,
    `Content-Disposition: attachment; filename="${name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    content.toString('base64'),
  ];
  return Buffer.from(
    [
      'From: Minjun Kim <minjun@example.test>',
      `To: ${to}`,
      'Cc: Team <team@example.test>',
      `Subject: ${SUBJECT}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${randomUUID()}@example.test>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      BODY,
      ...part('image/png', 'offsite.png', PHOTO),
      ...part('text/plain', 'agenda.txt', AGENDA),
      '--b--',
      '',
    ].join('\r\n'),
  );
}

/**
 * A mail's attachments in Chromium: an image attachment shows its thumbnail, "Download all" saves
 * one zip of every file, and Print opens a page of the mail alone, which is all that prints.
 */
describe('attachments and printing in a real browser', { timeout: 5 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'attachments');
    await storeMail(db, testBlobStore(), { userId: user.id, mailboxId: user.mailboxes.inbox, eml: mailWithPhoto(user.email) });
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'attachments-logs')).catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
  });

  test('a PNG attachment is previewed, Download all saves a zip of the files, Print shows the mail alone', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, acceptDownloads: true, locale: 'en-US' });
    context.setDefaultTimeout(30_000);
    // Chromium's print dialog would wait for a person: the page's print() is counted instead.
    await context.addInitScript(() => {
      const counted = window as unknown as { printed: number };
      counted.printed = 0;
      window.print = () => {
        counted.printed++;
      };
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(platform.webmailUrl);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.mail-row', { hasText: SUBJECT }).click();
      const pane = page.getByRole('region', { name: 'Reading pane' });
      await pane.getByRole('heading', { name: SUBJECT }).waitFor();

      const preview = pane.locator('img.attachment-preview');
      await preview.waitFor();
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('img.attachment-preview');
        return image !== null && image.complete && image.naturalWidth > 0;
      });
      assert.equal(await preview.count(), 1, 'only the image is previewed');
      assert.equal(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth), 240);
      await page.screenshot({ path: path.join(ARTIFACTS, 'attachments-preview.png'), fullPage: true });

      const toolbar = page.getByRole('toolbar', { name: 'Message actions' });
      const more = toolbar.getByRole('button', { name: 'More actions' });
      await more.click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download all' }).click()]);
      assert.equal(download.suggestedFilename(), `${SUBJECT}.zip`);
      const entries = await unzip(await readFile(await download.path()));
      assert.deepEqual(
        entries.map(({ name }) => name),
        ['offsite.png', 'agenda.txt'],
      );
      assert.ok(entries[0].content.equals(PHOTO), 'the PNG, byte for byte');
      assert.ok(entries[1].content.equals(AGENDA), 'the agenda, byte for byte');

      await more.click();
      await page.getByRole('menuitem', { name: 'Print', exact: true }).click();
      const printView = page.locator('.print-view');
      await printView.getByRole('heading', { name: SUBJECT, level: 1 }).waitFor();
      assert.equal(await page.evaluate(() => (window as unknown as { printed: number }).printed), 1, 'the print view prints at once');
      await page.emulateMedia({ media: 'print' });
      assert.ok(await printView.getByText(BODY).isVisible(), 'the body prints');
      assert.ok(await printView.getByText('minjun@example.test').isVisible(), 'the sender prints');
      assert.ok(await printView.getByText('team@example.test').isVisible(), 'the Cc prints');
      assert.ok(await printView.getByText('offsite.png').isVisible(), 'the file names print');
      assert.equal(await page.locator('.topbar').isVisible(), false, 'the top bar does not print');
      assert.equal(await toolbar.isVisible(), false, 'the toolbar does not print');
      assert.equal(await pane.isVisible(), false, 'the app behind the print view does not print');
      await page.screenshot({ path: path.join(ARTIFACTS, 'attachments-print.png'), fullPage: true });

      await page.emulateMedia({ media: 'screen' });
      await printView.getByRole('button', { name: 'Close' }).click();
      await printView.waitFor({ state: 'detached' });
      assert.ok(await pane.getByRole('heading', { name: SUBJECT }).isVisible());
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
