import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { MailboxChanges, storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, waitFor, type TestUser } from '@letterbox/testing';
import { launchChromium, phoneContext } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';
import { plainEml } from './testing/test-mail';

interface SmtpMessages {
  total: number;
  items: Array<{ raw?: string }>;
}

/** A control smaller than a fingertip: what it is called and how big it is. */
interface SmallTarget {
  control: string;
  width: number;
  height: number;
}

/** The webmail's words the test finds controls by, in each language it is run in. */
const WORDS = {
  'en-US': {
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    menu: 'Mailboxes',
    mailboxes: 'Mailboxes',
    inbox: 'Inbox',
    list: 'Mail list',
    readingPane: 'Reading pane',
    back: 'Back',
    reply: 'Reply',
    message: 'Message',
    undoFor: 'Undo for',
    send: 'Send',
    sending: 'Sending',
    account: 'Account',
    settings: 'Settings',
  },
  'ko-KR': {
    email: '이메일',
    password: '비밀번호',
    signIn: '로그인',
    menu: '편지함 목록',
    mailboxes: '편지함',
    inbox: '받은편지함',
    list: '메일 목록',
    readingPane: '메일 보기',
    back: '목록',
    reply: '답장',
    message: '본문',
    undoFor: '보내기 취소 가능 시간',
    send: '보내기',
    sending: '보내기',
    account: '계정',
    settings: '설정',
  },
} as const;

type Locale = keyof typeof WORDS;

const FINGERTIP_PX = 44;

/**
 * The visible controls inside `scope` smaller than 44 × 44 px. A control in a label answers a tap anywhere on the
 * label, so the label is what is measured; controls off the screen (the skip link) or hidden are not.
 */
function smallTargets(page: Page, scope: string): Promise<SmallTarget[]> {
  return page.evaluate(
    ({ scope, least }) => {
      const root = document.querySelector(scope);
      if (!root) throw new Error(`nothing on the page is ${scope}`);
      const small: SmallTarget[] = [];
      const controls = root.querySelectorAll<HTMLElement>(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex="0"]',
      );
      for (const control of Array.from(controls)) {
        const box = (control.closest('label') ?? control).getBoundingClientRect();
        const onScreen = box.width > 1 && box.height > 1 && box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight;
        if (!onScreen || !control.checkVisibility({ visibilityProperty: true })) continue;
        if (box.width < least || box.height < least) {
          const name = control.getAttribute('aria-label') || control.textContent?.trim() || control.outerHTML.slice(0, 80);
          small.push({ control: name, width: Math.round(box.width), height: Math.round(box.height) });
        }
      }
      return small;
    },
    { scope, least: FINGERTIP_PX },
  );
}

/** What is wider than the screen: the document itself, or one of the screen's parts (cut off or scrolling sideways). */
function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    for (const whole of [document.documentElement, document.body]) {
      if (whole.scrollWidth > width) problems.push(`${whole.tagName} is ${whole.scrollWidth} px wide on a ${width} px screen`);
    }
    const parts = document.querySelectorAll<HTMLElement>(
      '.topbar, .list-pane, .mail-list-scroll, .mail-list, .reader, .reader-content, .mail-header, #mailbox-drawer',
    );
    for (const part of Array.from(parts)) {
      if (!part.checkVisibility({ visibilityProperty: true })) continue;
      const box = part.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`.${part.className} spans ${box.left}–${box.right} px`);
      if (part.scrollWidth > part.clientWidth + 1) problems.push(`.${part.className} holds ${part.scrollWidth - part.clientWidth} px more than it shows`);
    }
    return problems;
  });
}

const listScrollTop = (page: Page) => page.evaluate(() => document.querySelector('.mail-list-scroll')?.scrollTop ?? -1);

/** Where a row shows on the screen, to the pixel. */
const screenTop = (row: Locator) => row.evaluate((element) => Math.round(element.getBoundingClientRect().top));

/**
 * The webmail on a phone (390 × 844, touch), in Chromium, in English and in Korean: the list is the only screen, the
 * mailboxes a drawer from the menu button, an opened mail a screen of its own with Back (and the browser's back)
 * returning to the list where it was left, and a reply from it sent. Every control of the list, the drawer and the
 * mail is at least 44 × 44 px, and nothing is wider than the screen.
 */
describe('the webmail on a phone in a real browser', { timeout: 10 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  const screenshots: string[] = [];

  before(async () => {
    db = testDatabase();
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'phone-logs')).catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
    for (const file of screenshots) console.log(`screenshot: ${path.relative(process.cwd(), file)}`);
  });

  async function screenshot(page: Page, name: string): Promise<void> {
    const file = path.join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path: file });
    screenshots.push(file);
  }

  /** An inbox longer than the screen, a long-winded mail in the middle of it from a far-away sender, and a folder of the user's. */
  async function seedMail(user: TestUser, run: string): Promise<{ subject: string; sender: string; folder: string; filedSubject: string }> {
    const blobs = testBlobStore();
    const sender = `someone.with.a.remarkably.long.mailbox.name.${run}@a-very-long-subdomain.of-an-external-company.example.test`;
    const subject = `Planning ${run}: a subject line long enough to run off a phone's screen twice over, with every follow-up listed`;
    for (let index = 0; index < 40; index++) {
      const important = index === 20;
      await storeMail(db, blobs, {
        userId: user.id,
        mailboxId: user.mailboxes.inbox,
        seen: !important,
        receivedAt: new Date(Date.UTC(2026, 10, 1, 9, 40 - index)),
        eml: plainEml({
          from: important ? `Someone With A Remarkably Long Display Name <${sender}>` : 'Colleague <colleague@example.test>',
          to: user.email,
          subject: important ? subject : `Everyday note ${index}`,
          text: important ? `The agenda is attached to nothing: Unbreakable${'x'.repeat(120)} and then the plan.` : `Note ${index}.`,
        }),
      });
    }
    const folder = 'Projects for the whole of next year and the year after';
    const filed = await new MailboxChanges(db.sql, async () => true).create(user.id, folder);
    const filedSubject = `Filed away ${run}`;
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: filed.id,
      seen: true,
      eml: plainEml({ from: 'Colleague <colleague@example.test>', to: user.email, subject: filedSubject, text: 'Kept.' }),
    });
    return { subject, sender, folder, filedSubject };
  }

  for (const locale of ['en-US', 'ko-KR'] as const satisfies Locale[]) {
    test(`${locale}: sign in, the drawer, read a mail and come back to the list where it was, reply`, async () => {
      const words = WORDS[locale];
      const tag = locale === 'en-US' ? 'phone' : 'phone-ko';
      const run = randomUUID().slice(0, 8);
      const user = await createTestUser(db, `phone-${locale.slice(0, 2)}`);
      const seeded = await seedMail(user, run);
      const context = await phoneContext(browser, locale);
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const list = page.getByRole('region', { name: words.list });
      const reader = page.getByRole('region', { name: words.readingPane });
      const menu = page.getByRole('button', { name: words.menu, exact: true });
      const drawer = page.getByRole('dialog', { name: words.mailboxes });
      const row = (subject: string) => list.locator('.mail-row', { hasText: subject });
      const listHeading = (name: string) => list.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) });
      try {
        await page.goto(platform.webmailUrl);
        await page.getByLabel(words.email).fill(user.email);
        await page.getByLabel(words.password, { exact: true }).fill(user.password);
        await page.getByRole('button', { name: words.signIn }).tap();

        // The list is the only screen.
        await row(seeded.subject).waitFor();
        assert.equal(await reader.isVisible(), false, 'no reading pane beside the list');
        assert.equal(await page.locator('#mailbox-drawer').isVisible(), false, 'no sidebar beside the list');
        assert.deepEqual(await horizontalOverflow(page), []);
        assert.deepEqual(await smallTargets(page, '.app'), []);
        await screenshot(page, `${tag}-list`);

        // The drawer: modal, focus in and back, closed by Escape, by a tap outside, and by choosing a mailbox.
        assert.equal(await menu.getAttribute('aria-expanded'), 'false');
        await menu.tap();
        await drawer.waitFor();
        await page.waitForFunction(() => document.querySelector('#mailbox-drawer')?.getAnimations().length === 0);
        assert.equal(await menu.getAttribute('aria-expanded'), 'true');
        await waitFor(() => page.evaluate(() => document.activeElement?.closest('#mailbox-drawer') !== null), { what: 'focus in the drawer' });
        assert.deepEqual(await smallTargets(page, '#mailbox-drawer'), []);
        assert.deepEqual(await horizontalOverflow(page), []);
        await screenshot(page, `${tag}-drawer`);
        const focusInDrawer = () => page.evaluate(() => document.activeElement?.closest('#mailbox-drawer') !== null);
        for (const key of ['Shift+Tab', 'Shift+Tab', 'Tab', 'Tab', 'Tab']) {
          await page.keyboard.press(key);
          assert.equal(await focusInDrawer(), true, `focus stays in the open drawer (${key})`);
        }
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });
        assert.equal(await menu.getAttribute('aria-expanded'), 'false');
        assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('drawer-button')), true, 'focus is back on the menu button');

        await menu.tap();
        await drawer.waitFor();
        await page.touchscreen.tap(370, 420);
        await drawer.waitFor({ state: 'hidden' });

        await menu.tap();
        await drawer.getByRole('link', { name: seeded.folder }).tap();
        await drawer.waitFor({ state: 'hidden' });
        await listHeading(seeded.folder).waitFor();
        await row(seeded.filedSubject).waitFor();
        await menu.tap();
        await drawer.getByRole('link', { name: new RegExp(words.inbox) }).tap();
        await listHeading(words.inbox).waitFor();

        // A mail opens as the only screen; Back returns to the list scrolled as it was: the row read is where it was on the
        // screen (the rows above it may have moved the list's offset: "Mark all as read" goes once nothing is unread).
        const important = row(seeded.subject);
        await important.scrollIntoViewIfNeeded();
        assert.ok((await listScrollTop(page)) > 0, 'the mail lies down the list');
        const shownAt = await screenTop(important);
        await important.tap();
        await reader.getByRole('heading', { level: 2, name: seeded.subject }).waitFor();
        await reader.getByText('and then the plan.').waitFor();
        assert.equal(await list.isVisible(), false, 'the list is not shown beside the mail');
        assert.deepEqual(await horizontalOverflow(page), [], 'the long subject, address and word wrap');
        assert.deepEqual(await smallTargets(page, '.reader'), []);
        assert.deepEqual(await smallTargets(page, '.topbar'), []);
        await screenshot(page, `${tag}-reader`);

        await reader.getByRole('button', { name: words.back }).tap();
        await important.waitFor();
        assert.equal(await reader.getByRole('heading', { level: 2, name: seeded.subject }).count(), 0);
        assert.equal(await screenTop(important), shownAt, 'the list is where it was left');

        await important.tap();
        await reader.getByRole('heading', { level: 2, name: seeded.subject }).waitFor();
        await page.goBack();
        await important.waitFor();
        assert.equal(await screenTop(important), shownAt, 'the browser back button returns to the same place');

        // Opened again and answered: compose fills the screen, and the reply reaches the sender's provider.
        await important.tap();
        await reader.getByRole('button', { name: words.reply, exact: true }).tap();
        const compose = page.getByRole('dialog', { name: words.reply });
        await compose.waitFor();
        const box = await compose.boundingBox();
        assert.deepEqual(box && [box.x, box.y, box.width, box.height], [0, 0, 390, 844], 'compose is full screen');
        assert.deepEqual(await smallTargets(page, '.dialog'), []);
        assert.deepEqual(await horizontalOverflow(page), []);
        await compose.getByRole('textbox', { name: words.message }).fill(`Agreed, ${run}.`);
        await compose.getByLabel(words.undoFor).selectOption('0');
        await screenshot(page, `${tag}-compose`);
        await compose.getByRole('button', { name: words.send, exact: true }).tap();
        await compose.waitFor({ state: 'detached' });
        await page.getByRole('region', { name: words.sending }).locator('[data-status="sent"]').waitFor({ timeout: 60_000 });
        const delivered = (await (
          await fetch(`${platform.mockProvidersUrl}/smtp/messages?to=${encodeURIComponent(seeded.sender)}&raw=1`)
        ).json()) as SmtpMessages;
        assert.equal(delivered.total, 1);
        const reply = await simpleParser(Buffer.from(delivered.items[0].raw ?? '', 'base64'));
        assert.match(String(reply.subject), new RegExp(`${run}`));
        assert.match(reply.text ?? '', new RegExp(`Agreed, ${run}`));

        // The settings are an icon in the top bar, and fit the screen too.
        await page.getByRole('navigation', { name: words.account }).getByRole('link', { name: words.settings }).tap();
        await page.getByRole('heading', { level: 2, name: words.settings }).waitFor();
        assert.equal(await list.isVisible(), false, 'the settings are the only screen');
        assert.deepEqual(await horizontalOverflow(page), []);
        await screenshot(page, `${tag}-settings`);

        assert.deepEqual(pageErrors, []);
      } finally {
        await context.close();
      }
    });
  }
});
