import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, launchBrowser } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * People behind one address (an office, a carrier's NAT, a family's router) arrive at once. A
 * first visit fetches about 200 files (the service worker precaches every hashed file); when
 * the per-address limit counted them, the third visit of a minute got 429s: raw JSON for a
 * page, a white screen for a chunk, a failed install.
 */
let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  // The production limits: on, at their default of 600 API requests a minute per address.
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '' }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Visit {
  heading: string | null;
  requests: number;
  apiRequests: number;
  refused: string[];
  installed: boolean;
}

/** A new visitor: an empty browser profile opens `/`, lands on the sign-in page, and the app installs. */
async function coldVisit(): Promise<Visit> {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: server.baseUrl,
    locale: 'en-US',
  });
  const visit: Visit = {
    heading: null,
    requests: 0,
    apiRequests: 0,
    refused: [],
    installed: false,
  };
  // The context hears the page's requests and its service worker's (the precache).
  context.on('request', (request) => {
    visit.requests += 1;
    if (new URL(request.url()).pathname.startsWith('/api/')) visit.apiRequests += 1;
  });
  context.on('response', (response) => {
    if (response.status() === 429) visit.refused.push(new URL(response.url()).pathname);
  });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/Login');
    await expect
      .poll(() => page.locator('h1').textContent(), { timeout: 30_000 })
      .toBe('Welcome back');
    visit.heading = await page.locator('h1').textContent();
    // Installed: every precached file arrived (a refused one fails the install).
    visit.installed = await page.evaluate(() =>
      navigator.serviceWorker.ready.then((registration) => registration.active !== null),
    );
    await page.waitForLoadState('networkidle');
  } finally {
    await context.close();
  }
  return visit;
}

describe('first visits from one address', () => {
  it(
    '20 cold first visits within a minute all load, install, and meet no 429',
    { timeout: 240_000 },
    async () => {
      const started = Date.now();
      const visits: Visit[] = [];
      // Four at a time, as a shared connection would bring them.
      for (let round = 0; round < 5; round++)
        visits.push(...(await Promise.all(Array.from({ length: 4 }, coldVisit))));
      const elapsedS = (Date.now() - started) / 1000;
      console.log(
        `20 cold first visits in ${elapsedS.toFixed(1)} s: ${visits.map((v) => v.requests).join(', ')} requests each (API ${visits.map((v) => v.apiRequests).join(', ')})`,
      );
      expect(visits.map((v) => v.heading)).toEqual(Array(20).fill('Welcome back'));
      expect(visits.map((v) => v.installed)).toEqual(Array(20).fill(true));
      expect(visits.flatMap((v) => v.refused)).toEqual([]);
      // The visits did cost what the limit used to count: far more than 600 requests in all.
      expect(visits.reduce((sum, v) => sum + v.requests, 0)).toBeGreaterThan(600);
    },
  );
});
