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
    `${preset}: performance ${scoreOf(categories.performance.score)}, accessibility ${scoreOf(categories.accessibility.score)}`,
    `  ${METRICS.map((id) => `${audits[id].title} ${audits[id].displayValue ?? `not measured (${audits[id].errorMessage ?? 'no value'})`}`).join(' · ')}`,
    `  blocking CPU time after the first paint: ${blockingCpuTime(result.artifacts.Trace.traceEvents as TraceEvent[], preset)} ms (the main thread's CPU time in each task after it ×${CPU_SLOWDOWN[preset]}, less 50 ms)`,
  ];
  const failing = categories.accessibility.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id].score !== null && audits[ref.id].score! < 1);
  for (const ref of failing) lines.push(`  accessibility fails: ${ref.id} (${audits[ref.id].title})`);
  return lines;
}

/** A category Lighthouse could not score (a metric it failed to read off the trace) says so rather than 0. */
const scoreOf = (score: number | null): string => (score === null ? 'not scored' : String(Math.round(score * 100)));

/** Lighthouse's presets simulate a CPU this many times slower than the machine's. */
const CPU_SLOWDOWN: Record<Preset, number> = { phone: 4, desktop: 1 };

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/**
 * Total Blocking Time counted in the main thread's CPU time (each task after the first paint, slowed as the preset
 * says, less 50 ms): the time a task waited for a core on a busy shared machine is not in it, so two builds can be
 * compared while other work runs, which moves Lighthouse's own figure more than most changes do.
 */
function blockingCpuTime(traceEvents: TraceEvent[], preset: Preset): number {
  const firstPaint = traceEvents.find((event) => event.name === 'firstContentfulPaint');
  if (!firstPaint) return Number.NaN;
  let blocking = 0;
  let taskEnd = 0;
  for (const event of traceEvents) {
    if (event.name !== 'RunTask' || event.ph !== 'X' || event.pid !== firstPaint.pid || event.tid !== firstPaint.tid || event.ts < firstPaint.ts) continue;
    // A task run inside another is already in that one's time.
    if (event.ts < taskEnd) continue;
    taskEnd = event.ts + (event.dur ?? 0);
    blocking += Math.max(0, ((event.tdur ?? event.dur ?? 0) / 1000) * CPU_SLOWDOWN[preset] - 50);
  }
  return Math.round(blocking);
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
