import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase } from '@letterbox/testing';
import { launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';

/**
 * The webmail in Korean, in Chromium: a Korean browser gets Korean before sign-in, a Korean account's mailboxes are
 * in Korean; English chosen in Settings shows at once, and is kept with the account, so a reload stays English.
 */
describe('the webmail in Korean in a real browser', { timeout: 5 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;

  before(async () => {
    db = testDatabase();
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'korean-logs')).catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
  });

  test('a Korean browser signs in to Korean, and English chosen in Settings is saved with the account', async () => {
    // A new account has chosen no language: the browser's holds after sign-in too.
    const user = await createTestUser(db, 'korean');
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'ko-KR' });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(platform.webmailUrl);
      await page.getByRole('button', { name: '로그인' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'ko');
      assert.equal(await page.title(), '로그인 – Letterbox');
      await page.screenshot({ path: path.join(ARTIFACTS, 'korean-sign-in.png'), fullPage: true });

      await page.getByLabel('이메일').fill(user.email);
      await page.getByLabel('비밀번호', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: '로그인' }).click();

      const mailboxes = page.getByRole('navigation', { name: '편지함' });
      await mailboxes.getByRole('link', { name: /받은편지함/ }).waitFor();
      await mailboxes.getByRole('link', { name: /휴지통/ }).waitFor();
      await page.getByRole('button', { name: '메일쓰기' }).waitFor();
      await page.getByRole('button', { name: '로그아웃' }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'korean-inbox.png'), fullPage: true });

      await page.getByRole('link', { name: '설정' }).click();
      await page.getByRole('heading', { name: '설정', level: 2 }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'korean-settings.png'), fullPage: true });
      await page.getByLabel('Language / 언어').selectOption('en');
      await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');

      await page.getByRole('link', { name: 'Letterbox' }).click();
      await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Inbox/ }).waitFor();

      // The choice is saved with the account: a reload (the browser still Korean) comes back in English.
      const saved = page.waitForResponse((response) => response.url().endsWith('/v2/auth/me') && response.request().method() === 'GET');
      await page.reload();
      await saved;
      await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: /Inbox/ }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');

      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
