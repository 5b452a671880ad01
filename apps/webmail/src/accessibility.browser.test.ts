import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, REPO_ROOT, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';
import { plainEml } from './testing/test-mail';

const AXE = path.join(REPO_ROOT, 'node_modules/axe-core/axe.min.js');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [1280, 390];

/** What a page says in each language, to find its controls by their names. */
const WORDS = {
  en: {
    locale: 'en-US',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    inbox: /Inbox/,
    mailboxes: 'Mailboxes',
    drawer: 'Mailboxes',
    compose: 'Compose',
    close: 'Close',
    formattedSignature: 'Formatted signature',
  },
  ko: {
    locale: 'ko-KR',
    email: '이메일',
    password: '비밀번호',
    signIn: '로그인',
    inbox: /받은편지함/,
    mailboxes: '편지함',
    drawer: '편지함 목록',
    compose: '메일쓰기',
    close: '닫기',
    formattedSignature: '서식 있는 서명',
  },
} as const;
type Language = keyof typeof WORDS;

/** WCAG's contrast ratio of two opaque `rgb()` colours. */
function contrast(first: string, second: string): number {
  const luminance = (color: string) => {
    const [red, green, blue] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((channel) => {
      const value = Number(channel) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
}

/**
 * WCAG 2.1 AA in Chromium: axe-core finds nothing on any page of the webmail (sign-in, the list, an open mail,
 * compose, settings, the office administration) at a desktop and a phone width, in English and Korean; and the
 * mail is used from the keyboard alone: the skip link, the list as one Tab stop with a cursor, compose's errors.
 */
describe('the webmail meets WCAG 2.1 AA in a real browser', { timeout: 15 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  const pageErrors: string[] = [];

  before(async () => {
    db = testDatabase();
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'accessibility-logs')).catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
  });

  /** An office administrator with a few unread mails, so every page has something on it. */
  async function administratorWithMail(name: string, subjects: string[]): Promise<TestUser> {
    const user = await createTestUser(db, name);
    await db.prisma.user.update({ where: { id: user.id }, data: { role: 'admin' } });
    const blobs = testBlobStore();
    for (const [index, subject] of subjects.entries()) {
      await storeMail(db, blobs, {
        userId: user.id,
        mailboxId: user.mailboxes.inbox,
        receivedAt: new Date(Date.now() - index * 60_000),
        eml: plainEml({ from: `Sender ${index} <sender${index}@example.test>`, to: user.email, subject, text: `Body of ${subject}.` }),
      });
    }
    return user;
  }

  async function newPage(language: Language, width: number): Promise<{ context: BrowserContext; page: Page }> {
    // axe is injected as an inline script, which the webmail's Content-Security-Policy forbids.
    const context = await browser.newContext({ viewport: { width, height: 860 }, locale: WORDS[language].locale, bypassCSP: true });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return { context, page };
  }

  async function signIn(page: Page, language: Language, user: TestUser): Promise<void> {
    const words = WORDS[language];
    await page.goto(platform.webmailUrl);
    await page.getByLabel(words.email).fill(user.email);
    await page.getByLabel(words.password, { exact: true }).fill(user.password);
    await page.getByRole('button', { name: words.signIn }).click();
    // On a phone the mailboxes are in a drawer: the list's rows are what every width shows.
    await page.locator('.mail-row').first().waitFor();
  }

  /** axe-core's WCAG 2.1 A and AA rules on the page as it is; the mail's own HTML (the sender's) is left out. */
  async function violationsOn(page: Page, where: string): Promise<string[]> {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(
      (tags) =>
        (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe.run(
          { exclude: [['.mail-frame iframe']] },
          { runOnly: { type: 'tag', values: tags }, iframes: false, resultTypes: ['violations'] },
        ),
      WCAG_21_AA,
    );
    return result.violations.map(
      (violation) => `${where}: ${violation.id} (${violation.impact}) at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
    );
  }

  for (const language of Object.keys(WORDS) as Language[]) {
    for (const width of WIDTHS) {
      test(`no WCAG 2.1 AA violation on any page, ${language}, ${width} px wide`, async () => {
        const words = WORDS[language];
        const user = await administratorWithMail(`axe-${language}-${width}`, ['Quarterly numbers', 'Lunch on Friday', 'Seating plan']);
        const { context, page } = await newPage(language, width);
        const found: string[] = [];
        const check = async (where: string) => {
          found.push(...(await violationsOn(page, where)));
          await page.screenshot({ path: path.join(ARTIFACTS, `axe-${language}-${width}-${where}.png`), fullPage: true });
        };
        try {
          await page.goto(platform.webmailUrl);
          await page.getByRole('button', { name: words.signIn }).waitFor();
          await check('sign-in');

          await signIn(page, language, user);
          await check('inbox');
          const box = page.locator('.row-check').first();
          await box.check();
          await page.locator('.selection-bar').waitFor();
          await check('inbox-ticked');
          await box.uncheck();
          if (width < 600) {
            await page.getByRole('button', { name: words.drawer, exact: true }).click();
            await page.getByRole('navigation', { name: words.mailboxes }).getByRole('link', { name: words.inbox }).waitFor();
            await check('drawer');
            await page.keyboard.press('Escape');
          } else {
            await page.getByRole('navigation', { name: words.mailboxes }).getByRole('link', { name: words.inbox }).waitFor();
          }

          await page.locator('.mail-row', { hasText: 'Lunch on Friday' }).click();
          await page.getByRole('heading', { name: 'Lunch on Friday' }).waitFor();
          await page.locator('.mail-frame iframe, .mail-text').first().waitFor();
          await check('mail');

          await page.getByRole('button', { name: words.compose }).click();
          const compose = page.getByRole('dialog');
          await compose.waitFor();
          await check('compose');
          await compose.getByRole('button', { name: words.close, exact: true }).click();

          for (const [where, hash] of [
            ['settings', '#/settings'],
            ['admin-users', '#/admin/users'],
            ['admin-office', '#/admin/office'],
            ['admin-audit', '#/admin/audit'],
          ]) {
            await page.evaluate((target) => {
              location.hash = target;
            }, hash);
            await page.locator('main.page h2').first().waitFor();
            await page.locator('main.page .loading').first().waitFor({ state: 'detached' });
            await check(where);
            if (where === 'settings') {
              // A formatted signature: its editor, its plain-text version and the hint that ties them.
              await page.getByRole('checkbox', { name: words.formattedSignature }).first().check();
              await check('settings-formatted-signature');
            }
          }
          assert.deepEqual(found, [], `axe found:\n${found.join('\n')}`);
          assert.deepEqual(pageErrors, []);
        } finally {
          await context.close();
        }
      });
    }
  }

  test('from the keyboard alone: the skip link focuses the main content, the list is one Tab stop with a cursor, Enter opens', async () => {
    const subjects = ['First of three', 'Second of three', 'Third of three'];
    const user = await administratorWithMail('keyboard', subjects);
    const { context, page } = await newPage('en', 1280);
    try {
      await signIn(page, 'en', user);
      const routeBefore = await page.evaluate(() => location.hash);

      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'MAIN', 'the skip link focuses <main>');
      assert.equal(await page.evaluate(() => location.hash), routeBefore, 'and leaves the route alone');

      let stops = 0;
      while (!(await page.evaluate(() => document.activeElement?.classList.contains('mail-row')))) {
        stops++;
        assert.ok(
          stops <= 10,
          `the list is within ten Tab stops of the main content; at ${stops}: ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`,
        );
        await page.keyboard.press('Tab');
      }
      const focusedSubject = () => page.evaluate(() => document.activeElement?.querySelector('.row-subject')?.textContent ?? '');
      assert.equal(await focusedSubject(), subjects[0]);

      // The ring is drawn inside the row (the list scrolls, and would clip it outside), 3:1 against the row at least.
      const ring = await page.evaluate(() => {
        const row = document.activeElement as HTMLElement;
        const style = getComputedStyle(row);
        return {
          style: style.outlineStyle,
          width: style.outlineWidth,
          offset: style.outlineOffset,
          color: style.outlineColor,
          behind: getComputedStyle(row.closest('.mail-list-scroll') as HTMLElement).backgroundColor,
        };
      });
      assert.deepEqual([ring.style, ring.width, ring.offset], ['solid', '3px', '-3px']);
      const behind = ring.behind === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : ring.behind;
      assert.ok(contrast(ring.color, behind) >= 3, `the focus ring ${ring.color} on ${behind}: ${contrast(ring.color, behind).toFixed(2)}:1`);
      const box = await page.locator('.row-check').first().boundingBox();
      assert.ok(box && box.width >= 24 && box.height >= 24, `a row's box is ${box?.width}×${box?.height}`);

      // The list is one stop: Tab leaves it (for the reading pane), Shift+Tab comes back to the same row.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.closest('[role="grid"]')), null, 'one Tab leaves the list');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focusedSubject(), subjects[0]);

      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      assert.equal(await focusedSubject(), subjects[2], '↓ ↓ moves the cursor two rows');
      await page.screenshot({ path: path.join(ARTIFACTS, 'keyboard-cursor.png') });
      await page.keyboard.press('k');
      assert.equal(await focusedSubject(), subjects[1], 'k moves it back');
      await page.keyboard.press('j');
      assert.equal(await focusedSubject(), subjects[2], 'j moves it on');
      assert.doesNotMatch(await page.evaluate(() => location.hash), /\/mail\//, 'moving opens nothing');
      const third = page.locator('.mail-row-item', { hasText: subjects[2] });
      assert.match((await third.getAttribute('class')) ?? '', /unread/, 'and marks nothing read');
      assert.equal((await db.prisma.mail.findFirstOrThrow({ where: { userId: user.id, subject: subjects[2] } })).seen, false);

      await page.keyboard.press('x');
      await page.getByRole('toolbar', { name: 'Selected mail' }).getByText('1 selected').waitFor();
      assert.equal(await third.getAttribute('aria-selected'), 'true', 'x selects the row under the cursor');
      await page.keyboard.press('x');
      await page.getByRole('toolbar', { name: 'Selected mail' }).waitFor({ state: 'detached' });

      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: subjects[2] }).waitFor();
      assert.match(await page.evaluate(() => location.hash), /\/mail\/\d+$/, 'Enter opens');
    } finally {
      await context.close();
    }
  });

  test('compose with a bad address announces the error and focuses the field; the subject warns at its limit', async () => {
    const user = await administratorWithMail('composer', ['Hello']);
    const { context, page } = await newPage('en', 1280);
    try {
      await signIn(page, 'en', user);
      await page.keyboard.press('c');
      const compose = page.getByRole('dialog');
      await compose.getByRole('combobox', { name: 'To' }).fill('not an address');
      await compose.getByLabel('Subject', { exact: true }).focus();
      await page.keyboard.type('Hello');
      await compose.getByRole('button', { name: 'Send', exact: true }).press('Enter');
      await compose.getByRole('alert').filter({ hasText: 'not an address' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'compose-to', 'focus is on the first bad field');
      assert.equal(await compose.getByRole('combobox', { name: 'To' }).getAttribute('aria-invalid'), 'true');

      await compose.getByLabel('Subject', { exact: true }).fill('s'.repeat(998));
      const warning = compose.getByRole('status').filter({ hasText: '998' });
      await warning.waitFor();
      const describedBy = (await compose.getByLabel('Subject', { exact: true }).getAttribute('aria-describedby')) ?? '';
      assert.ok(describedBy.split(' ').includes((await warning.getAttribute('id')) ?? '-'), 'the subject names its warning');
      assert.deepEqual(await violationsOn(page, 'compose with errors'), []);
    } finally {
      await context.close();
    }
  });
});
