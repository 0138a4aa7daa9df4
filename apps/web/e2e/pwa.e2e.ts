import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, browserOptions, launchBrowser, screenshot } from './browser.ts';
import { type RunningServer, WEB_DIST, startServer } from './server.ts';

/**
 * The installable app (spec §1: "a new version is available; downloading"). The server here
 * serves a copy of the build, so the test can deploy a "new version" under the open page.
 */
let browser: Browser;
let server: RunningServer;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pwa-dist-'));
  fs.cpSync(WEB_DIST, dist, { recursive: true });
  [browser, server] = await Promise.all([launchBrowser(), startServer({ WEB_DIST: dist })]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

const SHOTS = '/work/shots';
async function shot(page: Page, name: string): Promise<void> {
  const file = await screenshot(page, name);
  if (fs.existsSync(SHOTS)) fs.copyFileSync(file, path.join(SHOTS, `${name}.png`));
}

/**
 * Deploys a "new version", as a real deploy changes sw.js: another build id, and optionally one
 * more hashed file that no cache holds yet (so the download needs the network).
 */
function deploy(buildId: string, extraAsset?: string): void {
  const file = path.join(dist, 'sw.js');
  let source = fs
    .readFileSync(file, 'utf8')
    .replace(/^const BUILD_ID = .*;$/m, `const BUILD_ID = ${JSON.stringify(buildId)};`);
  if (extraAsset) {
    fs.writeFileSync(path.join(dist, extraAsset), 'export {};');
    source = source.replace(
      /^const ASSETS = \[/m,
      `const ASSETS = [${JSON.stringify(extraAsset)},`,
    );
  }
  fs.writeFileSync(file, source);
}

function builtAssets(): string[] {
  return JSON.parse(
    /^const ASSETS = (.*);$/m.exec(fs.readFileSync(path.join(WEB_DIST, 'sw.js'), 'utf8'))?.[1] ??
      '[]',
  ) as string[];
}

async function openControlled(language: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: server.baseUrl,
    locale: 'en-US',
  });
  const page = await context.newPage();
  await page.goto('/Login');
  await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 20_000,
  });
  return { context, page };
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys());
const cachedPaths = (page: Page) =>
  page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys())
        paths.push(new URL(request.url).pathname);
    }
    return paths;
  });

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('installable app in Chromium at 390×844', () => {
  it('is installable by Chromium’s own check, with a complete manifest, and the service worker controls the page', async () => {
    // A real profile: Chromium never offers to install from an incognito context, which newContext() is.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pwa-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      ...browserOptions(),
      viewport: PHONE,
      baseURL: server.baseUrl,
      locale: 'en-US',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/Login');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);
    const { errors, url } = (await cdp.send('Page.getAppManifest')) as {
      errors: unknown[];
      url: string;
    };
    expect(errors).toEqual([]);
    expect(url).toBe(`${server.baseUrl}/manifest.webmanifest`);

    const manifest = (await (await fetch(`${server.baseUrl}/manifest.webmanifest`)).json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Tradewind',
      short_name: 'Tradewind',
      start_url: '/',
      display: 'standalone',
      theme_color: '#0b1220',
    });
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      '192x192 any',
      '192x192 maskable',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of pngs) {
      const size = pngSize(
        Buffer.from(await (await fetch(`${server.baseUrl}${icon.src}`)).arrayBuffer()),
      );
      expect(`${size.width}x${size.height}`).toBe(icon.sizes);
    }

    // The first visit keeps this build's hashed files, and never an API reply, a socket or a private file.
    const cached = await cachedPaths(page);
    expect(cached).toEqual(
      expect.arrayContaining([
        ...builtAssets(),
        '/offline.html',
        '/offline.js',
        '/manifest.webmanifest',
      ]),
    );
    expect(cached.filter((p) => /^\/(api|ws|files)(\/|$)/.test(p))).toEqual([]);
    // The update card is not part of the first screen.
    expect(
      await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .some((entry) => entry.name.includes('update-prompt')),
      ),
    ).toBe(false);
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  it('shows the offline page in the stored language when the network is cut, never cached API data, and recovers', async () => {
    const { context, page } = await openControlled('en');
    await context.setOffline(true);
    await page.goto('/My');
    await expect.poll(() => page.locator('h1').textContent()).toBe('You are offline');
    await expect.poll(() => page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    // The API is never answered from a cache: offline, it fails.
    expect(
      await page.evaluate(() =>
        fetch('/api/v1/config').then(
          () => 'answered',
          () => 'failed',
        ),
      ),
    ).toBe('failed');
    await shot(page, 'pwa-offline-en');

    await page.evaluate(() => localStorage.setItem('lang', 'de'));
    await page.reload();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sie sind offline');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await shot(page, 'pwa-offline-de');

    // Back online, the page goes back to the app by itself.
    await context.setOffline(false);
    await expect.poll(() => page.locator('#root h1').count()).toBeGreaterThan(0);
    // Nobody is signed in here, so the app's guard sends /My on to /Login.
    expect(page.url()).toBe(`${server.baseUrl}/Login`);
    await context.close();
  });

  it(
    'a deploy → “a new version is available” → “downloading” → the page reloads into the new version',
    { timeout: 150_000 },
    async () => {
      const { context, page } = await openControlled('en');
      const [first] = await cacheNames(page);
      expect(first).toMatch(/^tw-[0-9a-f]{16}$/);

      deploy('e2e-second');
      await page.reload();
      await expect.poll(() => page.getByText('A new version is available').count()).toBe(1);
      await shot(page, 'pwa-update-en');

      // Record what the card says between the tap and the reload (sessionStorage outlives the reload).
      await page.evaluate(() => {
        const seen = new Set<string>();
        new MutationObserver(() => {
          const card = document.querySelector('.tw-update');
          if (card?.textContent)
            seen.add(card.textContent.includes('Downloading') ? 'downloading' : 'other');
          sessionStorage.setItem('update-seen', [...seen].join(','));
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
        (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
      });
      await page.getByRole('button', { name: 'Update', exact: true }).click();
      await page.waitForFunction(
        () => !(window as unknown as { beforeUpdate?: boolean }).beforeUpdate,
        undefined,
        { timeout: 20_000 },
      );
      await page.waitForLoadState('load');
      expect(await page.evaluate(() => sessionStorage.getItem('update-seen'))).toContain(
        'downloading',
      );
      // Reloaded into the new version: only its cache is left, holding every file, and no prompt.
      await expect.poll(() => cacheNames(page)).toEqual(['tw-e2e-second']);
      expect(await cachedPaths(page)).toEqual(expect.arrayContaining(builtAssets()));
      await expect
        .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state))
        .toBe('activated');
      expect(await page.locator('.tw-update').count()).toBe(0);

      // The same card in German, and its download state (held on screen by delaying the tap's message to the worker).
      await page.evaluate(() => localStorage.setItem('lang', 'de'));
      deploy('e2e-third');
      await page.reload();
      await expect.poll(() => page.getByText('Eine neue Version ist verfügbar').count()).toBe(1);
      await shot(page, 'pwa-update-de');
      await page.evaluate(() => {
        const send = ServiceWorker.prototype.postMessage;
        const held = window as unknown as { release?: () => void };
        ServiceWorker.prototype.postMessage = function (this: ServiceWorker, ...args: unknown[]) {
          held.release = () => (send as (...a: unknown[]) => void).apply(this, args);
        };
      });
      await page.getByRole('button', { name: 'Aktualisieren' }).click();
      await expect.poll(() => page.getByText('Wird heruntergeladen …').count()).toBe(1);
      await shot(page, 'pwa-downloading-de');
      await page.evaluate(() => (window as unknown as { release: () => void }).release());
      await expect.poll(() => cacheNames(page), { timeout: 30_000 }).toEqual(['tw-e2e-third']);

      // A download cut by a lost connection says so, keeps the running version, and can be retried.
      deploy('e2e-fourth', '/assets/e2e-new-file.js');
      await page.reload();
      await expect.poll(() => page.getByText('Eine neue Version ist verfügbar').count()).toBe(1);
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Aktualisieren' }).click();
      await expect
        .poll(() => page.getByText('Der Download ist fehlgeschlagen', { exact: false }).count(), {
          timeout: 30_000,
        })
        .toBe(1);
      await shot(page, 'pwa-update-failed-de');
      expect(await cacheNames(page)).toContain('tw-e2e-third');
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Erneut versuchen' }).click();
      await expect.poll(() => cacheNames(page), { timeout: 30_000 }).toEqual(['tw-e2e-fourth']);
      expect(await cachedPaths(page)).toContain('/assets/e2e-new-file.js');

      // "Later" puts the card away and keeps the running version.
      deploy('e2e-fifth');
      await page.reload();
      await expect.poll(() => page.getByText('Eine neue Version ist verfügbar').count()).toBe(1);
      await page.getByRole('button', { name: 'Später' }).click();
      await expect.poll(() => page.locator('.tw-update').count()).toBe(0);
      expect(await cacheNames(page)).toContain('tw-e2e-fourth');
      await context.close();
    },
  );
});
