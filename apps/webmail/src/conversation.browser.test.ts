import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { launchChromium } from './testing/browser';
import { buildSpa } from './testing/build-spa';
import { ARTIFACTS, startPlatform, type Platform } from './testing/platform';

const SUBJECT = 'Tuesday meeting';
const ANA = 'Ana Lima <ana@example.test>';
const BEN = 'Ben Okafor <ben@example.test>';

interface ThreadMail {
  from: string;
  text?: string;
  html?: string;
  language?: string;
  receivedAt: Date;
}

/** Message n of the conversation: each answers the one before it. */
function threadEml(index: number, to: string, mail: ThreadMail): Buffer {
  const id = (n: number) => `<meeting-${n}@conversation.test>`;
  const answers = index > 1 ? [`In-Reply-To: ${id(index - 1)}`, `References: ${Array.from({ length: index - 1 }, (_, n) => id(n + 1)).join(' ')}`] : [];
  return Buffer.from(
    [
      `From: ${mail.from}`,
      `To: ${to}`,
      `Subject: ${index > 1 ? 'Re: ' : ''}${SUBJECT}`,
      `Date: ${mail.receivedAt.toUTCString()}`,
      `Message-ID: ${id(index)}`,
      ...answers,
      ...(mail.language ? [`Content-Language: ${mail.language}`] : []),
      'MIME-Version: 1.0',
      `Content-Type: ${mail.html ? 'text/html' : 'text/plain'}; charset=utf-8`,
      'Content-Transfer-Encoding: 8bit',
      '',
      mail.html ?? mail.text ?? '',
      '',
    ].join('\r\n'),
  );
}

/**
 * The conversation view and the list's toolbars in Chromium at 1280×800: the open mail's body right under its
 * header, the rest of its conversation as one-line messages in date order without their quotes, opened in place;
 * the toolbars one row of icons, their menus worked from the keyboard.
 */
describe('the conversation view and the icon toolbars in a real browser', { timeout: 5 * 60_000 }, () => {
  let db: Database;
  let platform: Platform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: TestUser;
  const pageErrors: string[] = [];
  const hour = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'conversation');
    const blobs = testBlobStore();
    const thread: ThreadMail[] = [
      { from: ANA, receivedAt: hour(4), text: 'Shall we meet on Tuesday at 3?\r\nAna' },
      {
        from: BEN,
        receivedAt: hour(3),
        text: `Tuesday works for me.\r\n\r\nOn ${hour(4).toUTCString()}, ${ANA} wrote:\r\n> Shall we meet on Tuesday at 3?\r\n> Ana`,
      },
      { from: ANA, receivedAt: hour(2), text: '> Tuesday works for me.\r\n\r\nGreat, room 4 then.\r\n\r\n> On Tuesday?\r\nYes.' },
      {
        from: BEN,
        receivedAt: hour(1),
        language: 'ko',
        html: `<p>4번 회의실에서 봬요. See you in room 4.</p><p>On ${hour(2).toUTCString()}, Ana Lima &lt;ana@example.test&gt; wrote:</p><blockquote>Great, room 4 then.</blockquote>`,
      },
    ];
    // Stored out of date order: the conversation is shown in date order all the same.
    for (const index of [1, 3, 2, 4]) {
      const mail = thread[index - 1];
      await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, receivedAt: mail.receivedAt, eml: threadEml(index, user.email, mail) });
    }
    platform = await startPlatform(await buildSpa());
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(platform.webmailUrl);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.mail-row').nth(3).waitFor();
  });

  after(async () => {
    await platform?.saveLogs(path.join(ARTIFACTS, 'conversation-logs')).catch(() => undefined);
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await platform?.stop();
    await db?.close();
  });

  test('the open mail’s body starts right under its header; the others are folded one-liners in date order without their quotes', async () => {
    await page.locator('.mail-row', { hasText: 'See you in room 4.' }).click();
    const pane = page.getByRole('region', { name: 'Reading pane' });
    await pane.getByRole('heading', { level: 2, name: `Re: ${SUBJECT}` }).waitFor();
    const frame = pane.locator('iframe[title="Message body"]');
    await frame.waitFor();
    const paneBox = await pane.boundingBox();
    const bodyBox = await frame.boundingBox();
    assert.ok(paneBox && bodyBox);
    assert.ok(bodyBox.y - paneBox.y <= 300, `the open mail's body starts ${bodyBox.y - paneBox.y} px under the reading pane's top`);
    // The mail said it is in Korean (Content-Language): its document says so too.
    const frameHtml = pane.frameLocator('iframe[title="Message body"]').locator('html');
    await frameHtml.locator('p', { hasText: 'See you in room 4.' }).waitFor();
    assert.equal(await frameHtml.getAttribute('lang'), 'ko');

    const conversation = pane.getByRole('region', { name: 'Conversation' });
    await conversation.getByRole('heading', { name: '4 messages in this conversation' }).waitFor();
    const others = conversation.locator('.thread-toggle');
    await others.nth(2).waitFor();
    assert.equal(await others.count(), 3);
    assert.deepEqual(await conversation.locator('.thread-from').allTextContents(), ['Ana Lima', 'Ben Okafor', 'Ana Lima']);
    assert.deepEqual(await conversation.locator('.thread-snippet').allTextContents(), [
      'Shall we meet on Tuesday at 3? Ana',
      'Tuesday works for me.',
      'Great, room 4 then. Yes.',
    ]);
    const times = await conversation
      .locator('.thread-toggle time')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('datetime') ?? ''));
    assert.deepEqual([...times].sort(), times, 'in date order');
    const lineHeight = await others.first().evaluate((element) => parseFloat(getComputedStyle(element.querySelector('.thread-snippet') as Element).lineHeight));
    for (const box of await others.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().height))) {
      assert.ok(box < 2 * lineHeight + 20, `a folded message is one line: ${box} px tall, lines of ${lineHeight} px`);
    }
    for (const toggle of await others.all()) assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

    // Enter opens one in place, showing its whole body; a click opens another.
    const second = others.nth(1);
    await second.focus();
    await page.keyboard.press('Enter');
    assert.equal(await second.getAttribute('aria-expanded'), 'true');
    const secondBody = conversation.locator('.thread-message').nth(1).locator('.thread-body .mail-text');
    await secondBody.waitFor();
    assert.match((await secondBody.textContent()) ?? '', /^Tuesday works for me\.[\s\S]*> Shall we meet on Tuesday at 3\?/);
    await others.first().click();
    await conversation.locator('.thread-message').first().locator('.thread-body', { hasText: 'Shall we meet on Tuesday at 3?' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'conversation.png') });
  });

  test("the list toolbar, an open mail's actions and the selection bar are one row of icons at 1280 px, each named and with a tooltip", async () => {
    const row = page.locator('.list-toolbar-row');
    const searchButton = row.getByRole('button', { name: 'Search', exact: true });
    const rowBox = await row.boundingBox();
    const buttonBox = await searchButton.boundingBox();
    assert.ok(rowBox && buttonBox);
    assert.ok(rowBox.height < 1.5 * buttonBox.height, `the list toolbar is ${rowBox.height} px tall, its buttons ${buttonBox.height} px`);
    await searchButton.hover();
    const tooltip = await searchButton.evaluate((element) => getComputedStyle(element, '::after').content);
    assert.equal(tooltip, '"Search"');

    // The open mail's actions: one row of named icons; the rarer ones in its More actions menu.
    const actions = page.getByRole('toolbar', { name: 'Message actions' });
    const actionsBox = await actions.boundingBox();
    const reply = await actions.getByRole('button', { name: 'Reply', exact: true }).boundingBox();
    assert.ok(actionsBox && reply);
    assert.ok(actionsBox.height < 1.5 * reply.height, `the reading pane's action bar is ${actionsBox.height} px tall, its buttons ${reply.height} px`);
    const actionButtons = actions.getByRole('button');
    const actionTops = await actionButtons.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
    assert.equal(new Set(actionTops).size, 1, `every action on one row: tops ${actionTops.join(', ')}`);
    for (const button of await actionButtons.all()) {
      const [name, tip] = await button.evaluate((element) => [element.getAttribute('aria-label'), element.getAttribute('data-tooltip')]);
      assert.ok(name && name === tip, `${name} has a tooltip of its name`);
    }
    await actions.getByRole('button', { name: 'More actions' }).click();
    const overflow = page.getByRole('menu', { name: 'More actions' });
    const rarer = await overflow.getByRole('menuitem').allTextContents();
    assert.ok(
      ['Print', 'Report spam'].every((label) => rarer.includes(label)),
      `the More actions menu: ${rarer.join(', ')}`,
    );
    assert.ok(rarer.includes('Mark unread') || rarer.includes('Mark read'), `the More actions menu: ${rarer.join(', ')}`);
    await page.keyboard.press('Escape');
    await overflow.waitFor({ state: 'detached' });

    await page
      .getByLabel(/^Select /)
      .nth(1)
      .check();
    await page
      .getByLabel(/^Select /)
      .nth(2)
      .check();
    const bar = page.getByRole('toolbar', { name: 'Selected mail' });
    await bar.getByText('2 selected').waitFor();
    const barBox = await bar.boundingBox();
    const markRead = await bar.getByRole('button', { name: 'Mark read' }).boundingBox();
    assert.ok(barBox && markRead);
    assert.ok(barBox.height < 1.5 * markRead.height, `the selection bar is ${barBox.height} px tall, its buttons ${markRead.height} px`);
    const buttons = bar.getByRole('button');
    const tops = await buttons.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `every button on one row: tops ${tops.join(', ')}`);
    for (const button of await buttons.all()) {
      const [name, tip] = await button.evaluate((element) => [element.getAttribute('aria-label'), element.getAttribute('data-tooltip')]);
      assert.ok(name && name === tip, `${name} has a tooltip of its name`);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, 'conversation-toolbars.png') });
  });

  test('the overflow and filter menus open from the keyboard, and Escape closes them with focus back on their button', async () => {
    const bar = page.getByRole('toolbar', { name: 'Selected mail' });
    const more = bar.getByRole('button', { name: 'More actions' });
    assert.equal(await more.getAttribute('aria-haspopup'), 'menu');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'More actions' });
    await menu.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
    assert.equal(await focused(), 'Mark unread');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'Unflag');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'Mark unread', 'the arrows wrap around');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await focused(), 'More actions');
    assert.equal(await bar.getByText('2 selected').count(), 1, 'Escape in the menu leaves the selection as it was');

    // The list's filters: the down arrow opens their menu, Space turns one on and keeps the menu open.
    const filters = page.getByRole('button', { name: 'Filters and order' });
    await filters.focus();
    await page.keyboard.press('ArrowDown');
    const filterMenu = page.getByRole('menu', { name: 'Filters and order' });
    await filterMenu.waitFor();
    assert.equal(await focused(), 'Conversations');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'Unread');
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Filters and order (1 filter on)' }).waitFor();
    assert.equal(await filterMenu.getByRole('menuitemcheckbox', { name: 'Unread' }).getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Escape');
    await filterMenu.waitFor({ state: 'detached' });
    assert.equal(await focused(), 'Filters and order (1 filter on)');
    await page.keyboard.press('Enter');
    await page
      .getByRole('menu', { name: /^Filters and order/ })
      .getByRole('menuitemcheckbox', { name: 'Unread' })
      .click();
    await page.getByRole('button', { name: 'Filters and order', exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
