// bench/first-visits: new visitors behind one address (issue 26). The server as `npm start` runs
// it, with the production rate limits (on, 600 API requests a minute per address), then
// `--visits` cold first visits from 127.0.0.1, `--concurrency` at a time: each an empty browser
// profile that opens `/`, lands on the sign-in page and installs the app (the service worker
// precaches every hashed file). Per visit: requests made (page and service worker), API
// requests, 429s met, whether the page showed its heading, whether a page came back as JSON,
// whether the app installed.
//
//   node --import tsx bench/first-visits/run.ts [--visits 20] [--concurrency 4] [--root DIR]
//
// `--root DIR` starts the server of another checkout (a worktree of an older commit, its
// node_modules linked) with this checkout's web build: the same visits, before and after.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { ROOT, runStamp, startEmbeddedServer } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    visits: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
    root: { type: 'string' },
  },
});
const visits = Number(values.visits);
const concurrency = Number(values.concurrency);
const serverRoot = path.resolve(values.root ?? ROOT);
const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
const HEADING = 'Welcome back';

if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
  throw new Error('no web build: run `npm run build` first');

interface Visit {
  requests: number;
  apiRequests: number;
  refused: number;
  loaded: boolean;
  jsonPage: boolean;
  installed: boolean;
}

async function coldVisit(browser: Browser, baseUrl: string): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    baseURL: baseUrl,
    locale: 'en-US',
  });
  const visit: Visit = {
    requests: 0,
    apiRequests: 0,
    refused: 0,
    loaded: false,
    jsonPage: false,
    installed: false,
  };
  context.on('request', (request) => {
    visit.requests += 1;
    if (new URL(request.url()).pathname.startsWith('/api/')) visit.apiRequests += 1;
  });
  context.on('response', (response) => {
    if (response.status() === 429) visit.refused += 1;
  });
  try {
    const page = await context.newPage();
    const response = await page.goto('/');
    visit.jsonPage = (response?.headers()['content-type'] ?? '').includes('json');
    visit.loaded = await page
      .getByRole('heading', { name: HEADING })
      .waitFor({ timeout: 20_000 })
      .then(
        () => true,
        () => false,
      );
    // A string: this file is typed for Node, the expression runs in the page.
    const ready = page.evaluate<boolean>(
      'navigator.serviceWorker.ready.then((registration) => registration.active !== null)',
    );
    visit.installed = await Promise.race([
      ready,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    await page.waitForLoadState('networkidle').catch(() => undefined);
  } finally {
    await context.close();
  }
  return visit;
}

const server = await startEmbeddedServer({
  root: serverRoot,
  // The production limits, and this checkout's web build whichever server serves it.
  env: {
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_PER_MINUTE: '',
    WEB_DIST: path.join(ROOT, 'apps/web/dist'),
    ADMIN_DIST: '/nonexistent',
  },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: CHROME_FLAGS,
});
const started = Date.now();
const results: Visit[] = [];
try {
  while (results.length < visits) {
    const batch = Math.min(concurrency, visits - results.length);
    results.push(
      ...(await Promise.all(
        Array.from({ length: batch }, () => coldVisit(browser, server.baseUrl)),
      )),
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
const summary = {
  at: runStamp(),
  serverRoot: path.relative(ROOT, serverRoot) || '.',
  visits,
  concurrency,
  elapsedS: Number(((Date.now() - started) / 1000).toFixed(1)),
  loaded: results.filter((v) => v.loaded).length,
  installed: results.filter((v) => v.installed).length,
  jsonPages: results.filter((v) => v.jsonPage).length,
  refused429: results.reduce((sum, v) => sum + v.refused, 0),
  requestsPerVisit: results.map((v) => v.requests),
  apiRequestsPerVisit: results.map((v) => v.apiRequests),
};
const { requestsPerVisit, apiRequestsPerVisit, ...totals } = summary;
console.log(
  JSON.stringify(totals),
  `\nrequests per visit: ${requestsPerVisit.join(' ')}\nAPI requests per visit: ${apiRequestsPerVisit.join(' ')}`,
);
if (!values.root)
  fs.writeFileSync(
    path.join(ROOT, 'bench/results/first-visits.json'),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
