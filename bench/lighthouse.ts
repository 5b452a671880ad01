import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Page } from 'puppeteer-core';

/*
 * Lighthouse on the signed-in inbox of a running webmail (`npm start`, or the built apps), as
 * the issue measures it: the phone preset (Lighthouse's default: a mid-range phone on a slow 4G
 * link, simulated) and the desktop preset. Lighthouse is given the page it signed in on: the
 * session lives in that tab's sessionStorage, which a fresh tab would not have.
 */
const USAGE = `usage: node --require @swc-node/register bench/lighthouse.ts [--url http://127.0.0.1:8080] [--email alice@letterbox.test] [--password letterbox-demo] [--preset phone|desktop|both]`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

interface Options {
  url: string;
  email: string;
  password: string;
  presets: Preset[];
}

type Preset = 'phone' | 'desktop';

function options(): Options {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
      email: { type: 'string', default: 'alice@letterbox.test' },
      password: { type: 'string', default: 'letterbox-demo' },
      preset: { type: 'string', default: 'both' },
    },
  });
  const presets: Preset[] = values.preset === 'both' ? ['phone', 'desktop'] : [values.preset as Preset];
  if (presets.some((preset) => preset !== 'phone' && preset !== 'desktop')) throw new Error(`--preset: phone, desktop or both\n${USAGE}`);
  return { url: values.url, email: values.email, password: values.password, presets };
}

async function signIn(page: Page, { url, email, password }: Options): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle0' });
  await page.type('#sign-in-email', email);
  await page.type('#sign-in-password', password);
  await Promise.all([page.waitForFunction("sessionStorage.getItem('letterbox.session') !== null"), page.click('button[type=submit]')]);
}

async function audit(page: Page, url: string, preset: Preset): Promise<string[]> {
  const result = await lighthouse(
    url,
    { onlyCategories: ['performance', 'accessibility'], disableStorageReset: true, logLevel: 'error' },
    preset === 'desktop' ? desktopConfig : undefined,
    page,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits } = result.lhr;
  const lines = [
    `${preset}: performance ${Math.round((categories.performance.score ?? 0) * 100)}, accessibility ${Math.round((categories.accessibility.score ?? 0) * 100)}`,
    `  ${METRICS.map((id) => `${audits[id].title} ${audits[id].displayValue}`).join(' · ')}`,
  ];
  const failing = categories.accessibility.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id].score !== null && audits[ref.id].score! < 1);
  for (const ref of failing) lines.push(`  accessibility fails: ${ref.id} (${audits[ref.id].title})`);
  return lines;
}

async function main(): Promise<void> {
  const settings = options();
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await signIn(page, settings);
    const inbox = new URL('/#/', settings.url).href;
    for (const preset of settings.presets) process.stdout.write(`${(await audit(page, inbox, preset)).join('\n')}\n`);
  } finally {
    await browser.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
