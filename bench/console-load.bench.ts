/**
 * npm run bench:console — what loading the console costs a browser: the script and style bytes
 * it fetches, how many requests, and the time from navigating to /console/approvals until the
 * inbox says what is waiting (Debian's Chromium through playwright-core, headless, 1280×800).
 *
 * Cold: each load in a new browser context, so every file comes over the wire. Warm: the same tab
 * loads the page again, and the console's files answer 304 (they are revalidated on every load,
 * Cache-Control no-cache). Bytes are the files' bodies as the API serves them (uncompressed).
 * The API is the real one (from the TypeScript sources, as the e2e tests start it) over a fresh
 * database, on loopback; each figure is the median of `--runs` (default 15) loads after one
 * unmeasured load. Quote ratios between commits measured back to back, not absolute times.
 *
 * Needs PostgreSQL and Redis as the e2e tests do (test/support/env.ts); its databases are dropped at
 * the end. `--json` prints the numbers as one JSON object as well.
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page, type Response } from 'playwright-core';
import { startApi } from '../test/support/api';
import { createTemplateDatabase, dropDatabase, templateName } from '../test/support/database';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, json: { type: 'boolean', default: false } },
});
const RUNS = Number(values.runs);

/** One load: how long until the inbox showed, and the console's files it fetched. */
interface Loaded {
  ms: number;
  requests: number;
  notModified: number;
  scripts: number;
  scriptBytes: number;
  styleBytes: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function load(page: Page, url: string): Promise<Loaded> {
  const responses: Array<Promise<{ name: string; status: number; bytes: number }>> = [];
  const seen = (response: Response) => {
    const name = new URL(response.url()).pathname;
    if (!name.startsWith('/console/')) return;
    const status = response.status();
    // A 304 has no body: the browser uses its cached copy.
    const bytes = status === 200 ? response.body().then((b) => b.length) : Promise.resolve(0);
    responses.push(bytes.then((n) => ({ name, status, bytes: n })));
  };
  page.on('response', seen);
  const start = performance.now();
  await page.goto(`${url}/console/approvals`);
  await page.getByText('Nothing is waiting for approval.').waitFor();
  const ms = performance.now() - start;
  page.off('response', seen);
  const files = await Promise.all(responses);
  const sum = (xs: typeof files) => xs.reduce((total, f) => total + f.bytes, 0);
  const scripts = files.filter((f) => f.name.endsWith('.js'));
  return {
    ms,
    requests: files.length,
    notModified: files.filter((f) => f.status === 304).length,
    scripts: scripts.length,
    scriptBytes: sum(scripts),
    styleBytes: sum(files.filter((f) => f.name.endsWith('.css'))),
  };
}

async function main(): Promise<void> {
  process.env.WARDEN_TEST_RUN ??= `warden_bench_${randomBytes(3).toString('hex')}`;
  // The API's database is a copy of the run's migrated template, as in the e2e tests' global setup.
  await createTemplateDatabase();
  const api = await startApi();
  const browser = await chromium.launch({
    executablePath: process.env.WARDEN_TEST_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const { token } = await api.token('acme', 'bob', ['agents.approve']);
    /** A new context (an empty cache), signed in as the console keeps a token: in the tab. */
    const signedIn = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript((t) => sessionStorage.setItem('warden.console.token', t), token);
      return context;
    };
    const problems: string[] = [];
    const watched = async (context: BrowserContext) => {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      return page;
    };
    const cold: Loaded[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const context = await signedIn();
      const loaded = await load(await watched(context), api.url);
      if (i > 0) cold.push(loaded);
      await context.close();
    }
    const context = await signedIn();
    const page = await watched(context);
    const warm: Loaded[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const loaded = await load(page, api.url);
      if (i > 0) warm.push(loaded);
    }
    await context.close();
    if (problems.length) throw new Error(problems.join('\n'));
    const [c, w] = [cold[0], warm[0]];
    const ms = (runs: Loaded[]) => Math.round(median(runs.map((r) => r.ms)) * 10) / 10;
    const machine = `${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`;
    console.log(`console load, median of ${RUNS} (${machine})`);
    console.log(
      `  files: ${c.requests} requests (the page and its files), ${c.scripts} scripts of ${c.scriptBytes} bytes, styles ${c.styleBytes} bytes`,
    );
    console.log(`  cold (a new browser context): ${ms(cold)} ms to the inbox`);
    console.log(
      `  warm (the same tab again):    ${ms(warm)} ms to the inbox, ${w.notModified} of ${w.requests} answered 304`,
    );
    if (values.json)
      console.log(JSON.stringify({ runs: RUNS, cold: ms(cold), warm: ms(warm), files: c }));
  } finally {
    await browser.close();
    await api.close();
    await dropDatabase(templateName());
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
