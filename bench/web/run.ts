// bench/web: first-screen speed of the user app (issue 8). The production build served as
// `npm start` serves it (apps/server/src/main.ts with apps/web/dist, demo mode, embedded PGlite),
// then for `/Login` signed out and `/` signed in:
//  (a) Chromium through playwright-core: every JS and CSS response the page needs until its first
//      screen shows (network idle after `load`), with the bytes as served, gzipped at level 9 and
//      brotli-compressed at quality 11;
//  (b) Lighthouse 12, mobile preset (its default: simulated slow 4G, 4x CPU slowdown), performance
//      only, `--runs` times each on a fresh Chromium profile; the median score, LCP, TBT, FCP.
// Targets: ≤ 150 KB gzipped, score ≥ 98, LCP ≤ 1.6 s.
//
//   node --import tsx bench/web/run.ts [--runs 5] [--build] [--sizes-only] [--reports DIR]
//
// `--reports DIR` keeps each Lighthouse run's whole report (JSON) in DIR, for its audits.
//
// `--sizes-only` measures (a) alone and prints it, leaving bench/results/web.json as it is: the
// bytes do not depend on the machine's load, so they can be checked on a busy machine.
//
// Builds first when apps/web/dist is missing or older than the app's sources (or with --build).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { type Page, chromium } from 'playwright-core';
import { ROOT, registerUser, runStamp, startEmbeddedServer } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    reports: { type: 'string' },
    build: { type: 'boolean', default: false },
    'sizes-only': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const TARGET = { gzipKb: 150, score: 98, lcpMs: 1600 };
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The flags of apps/web/e2e/browser.ts (that file is typed for the browser, this one for Node). */
const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** The newest modification time under `dir` (skipping node_modules). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

const indexHtml = path.join(ROOT, 'apps/web/dist/index.html');
const stale =
  !fs.existsSync(indexHtml) ||
  fs.statSync(indexHtml).mtimeMs <
    Math.max(newest(path.join(ROOT, 'apps/web')), newest(path.join(ROOT, 'packages/contract/src')));
if (values.build || stale) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });

const server = await startEmbeddedServer();
const { baseUrl } = server;
console.log(
  `server on ${baseUrl}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const session = await registerUser(baseUrl, `bench-web-${Date.now()}@example.com`).catch(
  async (error: unknown) => {
    await server.stop();
    throw error;
  },
);

interface Asset {
  url: string;
  type: 'js' | 'css';
  servedBytes: number;
  contentEncoding: string | null;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

/**
 * Stores the session where the app reads it (spec §3), on a same-origin page that is not the app
 * (no service worker), with the cookies the app keeps beside it for the server (lib/storage.ts):
 * a returning signed-in visitor, to whom the server sends `/` rendered.
 */
async function storeSession(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/api/health`);
  const entries = { token: session.token, uid: String(session.uid), lang: 'en' };
  await page.evaluate(
    `for (const [key, value] of Object.entries(${JSON.stringify(entries)})) localStorage.setItem(key, value)`,
  );
  await page.context().addCookies([
    { name: 'lang', value: 'en', url: baseUrl },
    { name: 'signed_in', value: '1', url: baseUrl },
  ]);
}

/**
 * JS and CSS the first screen of `route` needs. The service worker is blocked: it registers after
 * `load` and then keeps the whole app for offline use, which the first screen does not wait for.
 */
async function firstScreen(
  route: string,
  signedIn: boolean,
): Promise<{ assets: Asset[]; rawKb: number; gzipKb: number; brotliKb: number; servedKb: number }> {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 3,
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    if (signedIn) await storeSession(page);
    const pending: Promise<Asset | null>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      pending.push(
        (async () => {
          const body = await response.body().catch(() => null);
          if (!body) return null;
          const headers = await response.allHeaders();
          return {
            url: new URL(response.url()).pathname,
            type: type === 'script' ? 'js' : 'css',
            servedBytes: Number(headers['content-length'] ?? body.length),
            contentEncoding: headers['content-encoding'] ?? null,
            rawBytes: body.length,
            gzipBytes: zlib.gzipSync(body, { level: 9 }).length,
            brotliBytes: zlib.brotliCompressSync(body, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
            }).length,
          } satisfies Asset;
        })(),
      );
    });
    await page.goto(`${baseUrl}${route}`, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    const assets = (await Promise.all(pending))
      .filter((a): a is Asset => a !== null)
      .sort((a, b) => b.gzipBytes - a.gzipBytes);
    const kb = (key: 'rawBytes' | 'gzipBytes' | 'brotliBytes' | 'servedBytes') =>
      Number((assets.reduce((sum, a) => sum + a[key], 0) / 1024).toFixed(1));
    return {
      assets,
      rawKb: kb('rawBytes'),
      gzipKb: kb('gzipBytes'),
      brotliKb: kb('brotliBytes'),
      servedKb: kb('servedBytes'),
    };
  } finally {
    await browser.close();
  }
}

interface LighthouseRun {
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  siMs: number;
}

/** One Lighthouse run on its own fresh Chromium profile; for a signed-in run the session is stored first. */
async function lighthouseRun(route: string, signedIn: boolean): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', ...CHROME_FLAGS],
  });
  try {
    if (signedIn) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const page = await context.newPage();
      await storeSession(page);
      await page.close();
      await browser.close();
    }
    const result = await lighthouse(
      `${baseUrl}${route}`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: signedIn,
      },
      undefined,
    );
    if (!result) throw new Error('lighthouse gave no result');
    const { lhr } = result;
    if (values.reports) {
      fs.mkdirSync(values.reports, { recursive: true });
      fs.writeFileSync(
        path.join(values.reports, `${route.replace(/\W+/g, '_') || 'root'}-${Date.now()}.json`),
        JSON.stringify(lhr),
      );
    }
    if (lhr.runtimeError)
      throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: ms('largest-contentful-paint'),
      tbtMs: ms('total-blocking-time'),
      fcpMs: ms('first-contentful-paint'),
      siMs: ms('speed-index'),
    };
  } finally {
    chrome.kill();
  }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : Math.round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
};

const PAGES = [
  { name: '/Login (signed out)', route: '/Login', signedIn: false },
  { name: '/ (signed in)', route: '/', signedIn: true },
];
/** Prints each page's first-screen files, largest first (`--sizes-only`). */
function printSizes(name: string, weight: Awaited<ReturnType<typeof firstScreen>>): void {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
  console.log(
    `\n${name}: ${weight.gzipKb} KB gzipped, ${weight.brotliKb} KB brotli, ${weight.rawKb} KB raw, ${weight.assets.length} files`,
  );
  console.log(`${'gzip'.padStart(9)} ${'brotli'.padStart(9)} ${'raw'.padStart(9)}  file`);
  for (const a of weight.assets)
    console.log(`${kb(a.gzipBytes)} ${kb(a.brotliBytes)} ${kb(a.rawBytes)}  ${a.url}`);
}

interface PageResult {
  page: string;
  firstScreen: {
    jsCssGzipKb: number;
    jsCssBrotliKb: number;
    jsCssRawKb: number;
    jsCssServedKb: number;
    files: number;
    assets: Asset[];
  };
  lighthouse: { median: LighthouseRun; runs: LighthouseRun[] };
}

const pages: PageResult[] = [];
try {
  for (const p of PAGES) {
    const weight = await firstScreen(p.route, p.signedIn);
    if (values['sizes-only']) {
      printSizes(p.name, weight);
      continue;
    }
    const lh: LighthouseRun[] = [];
    for (let i = 0; i < runs; i++) {
      // Lighthouse now and then loses the trace on a busy machine (NO_NAVSTART): such a run is repeated.
      for (let attempt = 1; ; attempt++) {
        try {
          lh.push(await lighthouseRun(p.route, p.signedIn));
          break;
        } catch (error) {
          if (attempt === 3) throw error;
          console.error(`${p.name} lighthouse run ${i + 1} failed, again: ${String(error)}`);
        }
      }
      console.log(
        `${p.name} lighthouse run ${i + 1}: ${JSON.stringify(lh.at(-1))}; load ${os.loadavg()[0]?.toFixed(2)}`,
      );
    }
    pages.push({
      page: p.name,
      firstScreen: {
        jsCssGzipKb: weight.gzipKb,
        jsCssBrotliKb: weight.brotliKb,
        jsCssRawKb: weight.rawKb,
        jsCssServedKb: weight.servedKb,
        files: weight.assets.length,
        assets: weight.assets,
      },
      lighthouse: {
        median: {
          score: median(lh.map((r) => r.score)),
          lcpMs: median(lh.map((r) => r.lcpMs)),
          tbtMs: median(lh.map((r) => r.tbtMs)),
          fcpMs: median(lh.map((r) => r.fcpMs)),
          siMs: median(lh.map((r) => r.siMs)),
        },
        runs: lh,
      },
    });
  }
} finally {
  await server.stop();
}

/** Writes bench/results/web.json and prints the table of docs/performance.md. */
function report(): void {
  const lighthouseVersion = (
    JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8'),
    ) as { version: string }
  ).version;
  const chromiumVersion = execFileSync(CHROME_PATH, ['--version']).toString().trim();
  const result = {
    ...runStamp(),
    lighthouse: `${lighthouseVersion}, mobile preset (simulated throttling), performance only, median of ${runs}`,
    chromium: chromiumVersion,
    gzip: 'each JS/CSS response body gzipped here with node:zlib level 9 (jsCssServedKb: the bytes as the server sent them)',
    target: TARGET,
    pages,
  };
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench/results/web.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  );

  const rows = pages.map((p) => {
    const m = p.lighthouse.median;
    return `| ${p.page} | ${p.firstScreen.jsCssGzipKb} KB (${p.firstScreen.files} files, ${p.firstScreen.jsCssServedKb} KB served) | ${m.score} | ${(m.lcpMs / 1000).toFixed(2)} s | ${m.tbtMs} ms | ${(m.fcpMs / 1000).toFixed(2)} s |`;
  });
  console.log(
    [
      `\n${result.date}, load average ${result.loadAverageAtEnd.join(' ')}, ${result.lighthouse}`,
      '| page | JS+CSS gzipped | score | LCP | TBT | FCP |',
      '|---|---|---|---|---|---|',
      ...rows,
      `| target | ≤ ${TARGET.gzipKb} KB | ≥ ${TARGET.score} | ≤ ${TARGET.lcpMs / 1000} s | | |`,
    ].join('\n'),
  );
}

if (!values['sizes-only']) report();
