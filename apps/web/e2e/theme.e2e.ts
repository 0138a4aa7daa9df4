import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';

/**
 * Issue 32's dark theme: the system's scheme by default, shown from the first frame (no light
 * flash before the app runs), a choice in Settings (Appearance) that overrides the system, is
 * kept on the device across a reload, and gives the choice back to the system with "System".
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let session: { token: string; uid: string };

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerByApi(baseUrl, `e2e-theme${Date.now()}@example.com`);
}, 60_000);
afterAll(() => browser?.close());

/** The page's dark page colour and light one (app/styles.css, --tw-bg). */
const DARK_BG = 'rgb(15, 17, 21)';
const LIGHT_BG = 'rgb(245, 246, 248)';

async function newContext(colorScheme: 'light' | 'dark'): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: baseUrl,
    locale: 'en-US',
    colorScheme,
  });
  // The scheme in the document's first animation frame, which comes before its first paint:
  // what the visitor sees first, whatever the app's code does after.
  await context.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstFrameTheme?: string }).firstFrameTheme =
        document.documentElement.dataset.prefersColorScheme ?? 'none';
    });
  });
  return context;
}

interface Shown {
  firstFrame: string | undefined;
  theme: string | undefined;
  background: string;
  themeColour: string | null;
  stored: string | null;
}

async function shown(page: Page): Promise<Shown> {
  await page.waitForFunction(() => 'firstFrameTheme' in window);
  return page.evaluate(() => ({
    firstFrame: (window as unknown as { firstFrameTheme?: string }).firstFrameTheme,
    theme: document.documentElement.dataset.prefersColorScheme,
    background: getComputedStyle(document.getElementById('root') as HTMLElement).backgroundColor,
    themeColour:
      document.querySelector('meta[name="theme-color"]')?.getAttribute('content') ?? null,
    stored: localStorage.getItem('theme'),
  }));
}

describe('dark theme (issue 32)', () => {
  it('follows the system: dark from the first frame when the phone is dark, light when light', async () => {
    for (const [scheme, background, colour] of [
      ['dark', DARK_BG, '#1a1d24'],
      ['light', LIGHT_BG, '#ffffff'],
    ] as const) {
      const context = await newContext(scheme);
      const page = await context.newPage();
      // The sign-in page is prerendered: painted from the server's HTML before the app runs.
      await page.goto('/Login');
      expect(await shown(page)).toEqual({
        firstFrame: scheme,
        theme: scheme,
        background,
        themeColour: colour,
        stored: null,
      });
      await page.waitForSelector('form[data-ready]');
      await screenshot(page, `theme-login-system-${scheme}`);
      await context.close();
    }
  });

  it('Light in Settings overrides a dark system, a reload keeps it, System gives it back', async () => {
    const context = await newContext('dark');
    const page = await context.newPage();
    await signIn(page, session, 'en');
    await page.goto('/My');
    await page.getByText('Appearance', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Theme');
    expect((await shown(page)).theme).toBe('dark');
    await screenshot(page, 'theme-settings-dark');

    await page.getByText('Light', { exact: true }).click();
    await expect.poll(async () => (await shown(page)).theme).toBe('light');
    expect(await shown(page)).toMatchObject({
      background: LIGHT_BG,
      themeColour: '#ffffff',
      stored: 'light',
    });
    await expect
      .poll(() =>
        page.locator('.adm-list-item', { hasText: 'Light' }).getByLabel('Selected').count(),
      )
      .toBe(1);
    await screenshot(page, 'theme-settings-light');

    // A reload (and any later visit) starts light from its first frame, the system still dark.
    await page.reload();
    expect(await shown(page)).toMatchObject({
      firstFrame: 'light',
      theme: 'light',
      background: LIGHT_BG,
      stored: 'light',
    });
    // Home as the server renders it for a signed-in visitor, too.
    await page.goto('/');
    expect((await shown(page)).firstFrame).toBe('light');

    await page.goto('/Theme');
    await page.locator('.adm-list-item', { hasText: 'System' }).click();
    await expect.poll(async () => (await shown(page)).theme).toBe('dark');
    expect(await shown(page)).toMatchObject({ background: DARK_BG, stored: null });
    await context.close();
  });

  it('Dark in Settings overrides a light system, and the chart follows', async () => {
    const context = await newContext('light');
    const page = await context.newPage();
    await signIn(page, session, 'en');
    await page.goto('/Theme');
    await page.getByText('Dark', { exact: true }).click();
    await expect.poll(async () => (await shown(page)).theme).toBe('dark');
    expect(await shown(page)).toMatchObject({ background: DARK_BG, stored: 'dark' });

    // The candlestick chart draws on the card's dark colour, not white.
    await page.goto('/Detail?symbol=BTCUSDT');
    expect((await shown(page)).firstFrame).toBe('dark');
    const canvas = page.locator('.tw-chart-box canvas').first();
    await canvas.waitFor();
    // The colour most of the chart's pixels have is its background: --tw-surface in dark, #1a1d24.
    const background = await canvas.evaluate((element) => {
      const drawn = element as HTMLCanvasElement;
      const pixels = drawn.getContext('2d')?.getImageData(0, 0, drawn.width, drawn.height).data;
      const counts = new Map<string, number>();
      for (let i = 0; pixels && i < pixels.length; i += 4) {
        const colour = `${pixels[i]},${pixels[i + 1]},${pixels[i + 2]}`;
        counts.set(colour, (counts.get(colour) ?? 0) + 1);
      }
      return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    });
    expect(background).toBe('26,29,36');
    await screenshot(page, 'theme-detail-dark');
    await context.close();
  });
});
