import type { MiningProduct, MiningRental } from '@tradewind/contract/mining';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn, waitFor } from './browser.ts';
import { registerByApi } from './images.ts';
import { makeReady } from './ready-user.ts';

/**
 * Issue 26: a rate limit or a page's code that does not download never leaves the visitor a
 * blank screen or a false "does not exist". The browser's requests are cut or answered 429
 * by Playwright; everything else is the real server.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const api = <T>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, path, token, body, headers);

const TEXT = {
  en: {
    tag: 'en',
    failed: 'Could not load this page.',
    retry: 'Retry',
    limited: 'Too many requests. Try again in 30\u00a0s.',
    notFound: 'This rental does not exist.',
    paidOut: 'Paid out',
  },
  zh_CN: {
    tag: 'zh-CN',
    failed: '页面加载失败。',
    retry: '重试',
    limited: '请求过于频繁，请 30 秒后重试。',
    notFound: '该租用记录不存在。',
    paidOut: '已发放',
  },
  de: {
    tag: 'de',
    failed: 'Diese Seite konnte nicht geladen werden.',
    retry: 'Erneut versuchen',
    limited: 'Zu viele Anfragen. Bitte in 30\u00a0s erneut versuchen.',
    notFound: 'Diese Miete gibt es nicht.',
    paidOut: 'Ausgezahlt',
  },
} as const;
type Language = keyof typeof TEXT;

/** The chunk of /MiningInfo (`mining-info-page-<hash>.js`), the page these tests keep from downloading. */
const MINING_INFO_CHUNK = '**/assets/mining-info-page-*.js';

let counter = 0;
let session: { token: string; uid: string; productId: string; rentalId: string } | undefined;

/** One user for the file, holding a miner rental just paid for (from a simulated-chain deposit). */
async function rentedSession() {
  if (session) return session;
  const user = await registerByApi(baseUrl, `e2e-resilience${Date.now()}${++counter}@example.com`);
  await makeReady(baseUrl, user);
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token))
    .data;
  expect(
    (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '500' })).code,
  ).toBe(0);
  await waitFor(
    'the deposit to be seen',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
        .length > 0,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  await waitFor('the deposit to be credited', async () => {
    const balances = await api<{ spot: { asset: string; available: string }[] }>(
      'GET',
      '/api/v1/wallet/balances',
      user.token,
    );
    return balances.data.spot.find((s) => s.asset === 'USDT')?.available === '500';
  });
  const product = (
    await api<{ items: MiningProduct[] }>('GET', '/api/v1/mining/products', user.token)
  ).data.items[0] as MiningProduct;
  const rental = await api<MiningRental>(
    'POST',
    '/api/v1/mining/rentals',
    user.token,
    { productId: product.id, quantity: 1, amount: product.unitPrice },
    { 'idempotency-key': `e2e-${Date.now()}-${counter}` },
  );
  expect(rental.code).toBe(0);
  session = { ...user, productId: product.id, rentalId: rental.data.id };
  return session;
}

/** A phone in `language`, signed in, without the service worker (its cache would answer the chunk these tests cut). */
async function phone(language: Language): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: baseUrl,
    locale: TEXT[language].tag,
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await signIn(page, await rentedSession(), language);
  return { context, page };
}

/** What the page shows: text of its body (never empty: a blank screen is the failure this file is about). */
const bodyText = (page: Page) =>
  page.evaluate(() => document.getElementById('root')?.innerText.trim() ?? '');

const rateLimited = (route: Route, retryAfterS: number) =>
  route.fulfill({
    status: 429,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'retry-after': String(retryAfterS),
    },
    body: JSON.stringify({
      code: 429,
      message: 'Rate limit exceeded, retry in 30 seconds',
      data: null,
    }),
  });

describe('a page whose code does not download (issue 26)', () => {
  it('is tried three times, then says so with a retry; Retry after the connection is back opens the page', async () => {
    const { context, page } = await phone('en');
    await page.goto('/Mining');
    const termsLink = page.locator('a[href^="/MiningInfo"]').first();
    await termsLink.waitFor();
    const attempts: string[] = [];
    await page.route(MINING_INFO_CHUNK, (route) => {
      attempts.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    await termsLink.click();
    await expect
      .poll(() => page.getByRole('alert').locator('h1').textContent())
      .toBe(TEXT.en.failed);
    expect(attempts).toHaveLength(3);
    expect(await bodyText(page)).toContain('Check your connection and retry.');

    await page.unroute(MINING_INFO_CHUNK);
    await page.getByRole('button', { name: TEXT.en.retry }).click();
    await expect
      .poll(() => page.locator('.tw-nav-bar-title h1').textContent())
      .toBe('Miner information');
    await expect.poll(() => page.locator('.tw-mining-description').count()).toBe(1);
    await context.close();
  });

  it('opened by its address, shows the retry screen rather than a blank page', async () => {
    const { context, page } = await phone('en');
    await page.route(MINING_INFO_CHUNK, (route) => route.abort('internetdisconnected'));
    const { productId } = await rentedSession();
    await page.goto(`/MiningInfo?id=${productId}`);
    await expect
      .poll(() => page.getByRole('alert').locator('h1').textContent())
      .toBe(TEXT.en.failed);
    await page.unroute(MINING_INFO_CHUNK);
    await page.getByRole('button', { name: TEXT.en.retry }).click();
    await expect.poll(() => page.locator('.tw-mining-description').count()).toBe(1);
    await context.close();
  });

  it('gone from the server after a deploy: Retry reloads the app, which opens the page', async () => {
    const { context, page } = await phone('en');
    await page.goto('/Mining');
    const termsLink = page.locator('a[href^="/MiningInfo"]').first();
    await termsLink.waitFor();
    // The old build's file answers 404 until the app has asked whether it is gone; after the
    // reload the page's file (the same name here, standing for the new build's) downloads.
    let gone = true;
    await page.route(MINING_INFO_CHUNK, (route) => {
      if (!gone) return route.continue();
      if (route.request().method() === 'HEAD') gone = false;
      return route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: '{"code":404,"message":"Not found.","data":null}',
      });
    });
    await termsLink.click();
    await expect
      .poll(() => page.getByRole('alert').locator('h1').textContent())
      .toBe(TEXT.en.failed);
    await page.evaluate(() => Object.assign(window, { beforeRetry: true }));
    await page.getByRole('button', { name: TEXT.en.retry }).click();
    await expect.poll(() => page.locator('.tw-mining-description').count()).toBe(1);
    expect(gone).toBe(false);
    expect(await page.evaluate(() => 'beforeRetry' in window), 'the app was reloaded').toBe(false);
    await context.close();
  });
});

describe('a rental refused with 429 (issue 26)', () => {
  it('a short Retry-After is waited out: the rental shows, with no message', async () => {
    const { context, page } = await phone('en');
    const { rentalId } = await rentedSession();
    let refused = 0;
    await page.route('**/api/v1/mining/rental?*', (route) =>
      refused++ === 0 ? rateLimited(route, 1) : route.continue(),
    );
    await page.goto(`/MiningDetail?id=${rentalId}`);
    await expect.poll(() => page.getByTestId('rental-summary').count()).toBe(1);
    expect(refused).toBe(2);
    expect(await page.locator('.adm-toast-main').count()).toBe(0);
    await context.close();
  });

  it('an unknown id still says the rental does not exist', async () => {
    const { context, page } = await phone('en');
    await page.goto('/MiningDetail?id=999999999');
    await expect.poll(() => bodyText(page)).toContain(TEXT.en.notFound);
    expect(await page.getByTestId('load-failed').count()).toBe(0);
    await context.close();
  });
});

describe.each(Object.keys(TEXT) as Language[])('in %s', (language) => {
  const text = TEXT[language];

  it('a rental refused with a long Retry-After says "could not load" and the wait, never "does not exist"; Retry shows it', async () => {
    const { context, page } = await phone(language);
    const { rentalId } = await rentedSession();
    await page.route('**/api/v1/mining/rental?*', (route) => rateLimited(route, 30));
    await page.goto(`/MiningDetail?id=${rentalId}`);
    // One toast with the wait, and the same words under "could not load".
    await expect.poll(() => page.locator('.adm-toast-main').textContent()).toBe(text.limited);
    await expect.poll(() => page.getByTestId('load-failed').textContent()).toContain(text.limited);
    expect(await bodyText(page)).not.toContain(text.notFound);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    // The toast fades in: its picture once it is fully there.
    await expect
      .poll(() =>
        page.locator('.adm-toast-mask').evaluate((mask) => getComputedStyle(mask).opacity),
      )
      .toBe('1');
    await screenshot(page, `${language}-rate-limited`);

    await page.unroute('**/api/v1/mining/rental?*');
    await page.getByTestId('load-failed').getByRole('button', { name: text.retry }).click();
    await expect
      .poll(() => page.getByTestId('rental-summary').textContent())
      .toContain(text.paidOut);
    await context.close();
  });

  it('the retry screen of a page that did not download', async () => {
    const { context, page } = await phone(language);
    await page.route(MINING_INFO_CHUNK, (route) => route.abort('internetdisconnected'));
    const { productId } = await rentedSession();
    await page.goto(`/MiningInfo?id=${productId}`);
    await expect.poll(() => page.getByRole('alert').locator('h1').textContent()).toBe(text.failed);
    await expect.poll(() => page.getByRole('button', { name: text.retry }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await screenshot(page, `${language}-page-load-failed`);
    await context.close();
  });
});
