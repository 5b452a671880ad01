import { chromium, type Browser, type BrowserContext } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The machine's Chromium, headless, quiet (no background traffic of its own). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** English, whatever the machine's language: the tests find controls by their English names. */
export async function desktopContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'en-US' });
  context.setDefaultTimeout(30_000);
  return context;
}

/** A phone of 390 × 844 CSS pixels (an iPhone's), touch, at three device pixels per CSS pixel. */
export async function phoneContext(browser: Browser, locale: 'en-US' | 'ko-KR' = 'en-US'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale });
  context.setDefaultTimeout(30_000);
  return context;
}
