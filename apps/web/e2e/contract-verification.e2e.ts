import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { parseAccumulatorUpdate, sliceAccumulatorUpdate } from '@tradewind/contract/pyth-proof';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, SCREENSHOT_DIR, apiCall, launchBrowser, waitFor } from './browser.ts';
import { type Session, fundedFuturesUser } from './funded-user.ts';
import { TRADE_PIN } from './ready-user.ts';

/**
 * The verification section of a settled order (issue 28): each tick's source quotes, the
 * median the page works out from them, the index rule in words, and the close tick's
 * signature. A demo order is priced by the simulated walk, which signs nothing, so the page
 * says there is no signature to check. The signed path is then shown on the same order with
 * its reply rewritten in the browser to carry a real Pyth update (Hermes' BTC/USD of
 * 2025-08-05, apps/server/test/fixtures/pyth): the page loads the verifier only when asked
 * and checks the update against Wormhole's published guardian keys in Chromium.
 */

const baseUrl = suiteServer().baseUrl;
const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
let browser: Browser;

interface Quote {
  source: string;
  sourceLabel: string;
  price: string;
  sourceTime: string;
  receivedAt: string;
}
interface Tick {
  id: string;
  price: string;
  ts: string;
  source: string;
  sourceLabel: string;
  quotes?: Quote[];
  proofs?: { source: string; feedId: string; update: string }[];
}
interface Order {
  id: string;
  state: 'open' | 'settled';
  direction: 'up' | 'down';
  outcome: string | null;
  openTick: Tick;
  closeTick: Tick | null;
}

const api = <T>(
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, url, token, body, headers);
let counter = 0;

/** A new user holding `usdt` in the futures account (funded-user.ts). */
const fundedUser = (usdt: string) => fundedFuturesUser(baseUrl, usdt, 'verify');

/** A BTC/USDT order on the shortest period, placed through the API. */
async function placeOrder(user: Session): Promise<{ order: Order; seconds: number }> {
  const { periods } = (
    await api<{ periods: { id: number; seconds: number }[] }>(
      'GET',
      '/api/v1/contracts/config',
      user.token,
    )
  ).data;
  const shortest = periods.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const placed = await api<{ order: Order }>(
    'POST',
    '/api/v1/contracts/orders',
    user.token,
    {
      symbol: 'BTCUSDT',
      direction: 'up',
      periodId: shortest.id,
      amount: '10',
      tradePassword: TRADE_PIN,
    },
    { 'idempotency-key': `e2e-verify-${Date.now()}-${++counter}` },
  );
  expect(placed.code, JSON.stringify(placed)).toBe(0);
  return { order: placed.data.order, seconds: shortest.seconds };
}

/** The order once settled, as its detail reply has it. */
async function settledOrder(user: Session, id: string, timeoutMs = 90_000): Promise<Order> {
  let order: Order | undefined;
  await waitFor(
    'the order to settle',
    async () =>
      (order = (await api<Order>('GET', `/api/v1/contracts/order?id=${id}`, user.token)).data)
        .state === 'settled',
    timeoutMs,
  );
  if (!order) throw new Error('no order');
  return order;
}

beforeAll(async () => {
  browser = await launchBrowser();
  await waitFor(
    'a fresh BTC price',
    async () =>
      (await api<{ price: string | null }>('GET', '/api/v1/market/ticker?symbol=BTCUSDT')).data
        .price !== null,
  );
});
afterAll(() => browser?.close());

async function phonePage(session: Session, lang: string, locale: string): Promise<Page> {
  // Axe is injected as a script tag, which the app's CSP (script-src 'self') would refuse.
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: baseUrl,
    locale,
    timezoneId: 'UTC',
    bypassCSP: true,
  });
  await context.addInitScript(
    ([token, uid, language]) => {
      localStorage.setItem('token', token as string);
      localStorage.setItem('uid', uid as string);
      localStorage.setItem('lang', language as string);
    },
    [session.token, session.uid, lang],
  );
  return context.newPage();
}

const text = async (locator: Locator) => ((await locator.first().textContent()) ?? '').trim();

/** axe's serious and critical violations (WCAG 2.0 A/AA, 2.1 AA), as "rule: targets". */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    type Result = { id: string; impact: string | null; nodes: { target: unknown[] }[] };
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: Result[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

async function sectionShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page
    .locator('section.tw-verify')
    .screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** BTC/USDT has two price places: grouped and padded as the English screen shows it. */
const priceEn = (value: string) => {
  const [whole = '0', fraction = ''] = value.split('.');
  return `${BigInt(whole).toLocaleString('en-US')}.${fraction.padEnd(2, '0')}`;
};

const BTC_USD = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43';
const signedBtc = (() => {
  const nine = fs
    .readFileSync(
      new URL('../../server/test/fixtures/pyth/hermes-update-9-feeds.hex', import.meta.url),
      'utf8',
    )
    .trim();
  const slice = sliceAccumulatorUpdate(nine, BTC_USD);
  if (!slice) throw new Error('the fixture does not carry BTC/USD');
  return bytesToHex(slice);
})();

const quote = (
  source: string,
  sourceLabel: string,
  price: string,
  sourceTime: string,
  receivedAt: string,
): Quote => ({ source, sourceLabel, price, sourceTime, receivedAt });

/**
 * The order as an index of Binance and Pyth would have priced it around the fixture's
 * update: Pyth's signed BTC/USD (113,319.19974145 at 17:44:44, 113,319.20 at two places) is
 * one of the close tick's two quotes, and its signed update is kept with the tick.
 */
function pricedByPyth(order: Order, update: string): Order {
  if (!order.closeTick) throw new Error('the order has no close tick');
  return {
    ...order,
    openTick: {
      ...order.openTick,
      price: '113301.5',
      ts: '2025-08-05T17:44:15.000Z',
      source: 'binance+pyth',
      sourceLabel: 'Binance + Pyth',
      quotes: [
        quote(
          'binance',
          'Binance',
          '113302.1',
          '2025-08-05T17:44:14.612Z',
          '2025-08-05T17:44:14.690Z',
        ),
        quote('pyth', 'Pyth', '113300.9', '2025-08-05T17:44:14.000Z', '2025-08-05T17:44:14.902Z'),
      ],
    },
    closeTick: {
      ...order.closeTick,
      price: '113319.8',
      ts: '2025-08-05T17:44:45.000Z',
      source: 'binance+pyth',
      sourceLabel: 'Binance + Pyth',
      quotes: [
        quote(
          'binance',
          'Binance',
          '113320.4',
          '2025-08-05T17:44:44.731Z',
          '2025-08-05T17:44:44.802Z',
        ),
        quote('pyth', 'Pyth', '113319.2', '2025-08-05T17:44:44.000Z', '2025-08-05T17:44:44.950Z'),
      ],
      proofs: [{ source: 'pyth', feedId: BTC_USD, update }],
    },
  };
}

/** Serves the order's detail rewritten by `rewrite`, and counts the verifier's chunk as it loads. */
async function rewriteOrder(
  page: Page,
  rewrite: (order: Order) => Order,
): Promise<{ verifierLoaded: () => boolean }> {
  let loaded = false;
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && /\/pyth-proof-[\w-]+\.js$/.test(request.url()))
      loaded = true;
  });
  await page.route(/\/api\/v1\/contracts\/order\?/, async (route) => {
    const response = await route.fetch();
    const envelope = (await response.json()) as { code: number; data: Order };
    await route.fulfill({ response, json: { ...envelope, data: rewrite(envelope.data) } });
  });
  return { verifierLoaded: () => loaded };
}

describe('the verification section of a settled order in Chromium at 390×844', () => {
  let user: Session;
  let placedId: string;
  let order: Order;

  beforeAll(async () => {
    user = await fundedUser('50');
    placedId = (await placeOrder(user)).order.id;
  }, 90_000);

  it(
    'en, a demo order watched until it settles: each tick’s quote, its median and the index rule; the walk signs nothing',
    { timeout: 150_000 },
    async () => {
      const page = await phonePage(user, 'en', 'en-US');
      const scripts: string[] = [];
      page.on(
        'request',
        (request) => request.resourceType() === 'script' && scripts.push(request.url()),
      );
      await page.goto(`/ContractDetail?id=${placedId}`);
      await expect.poll(() => page.getByTestId('open-tick-quotes').count()).toBe(1);
      // The result arrives on the page (the settled event, or polling after delivery); the event
      // carries no quotes, so the page fetches the detail that has them.
      await expect
        .poll(() => page.getByTestId('detail-outcome').count(), { timeout: 90_000, interval: 500 })
        .toBe(1);
      order = await settledOrder(user, placedId);
      if (order.closeTick)
        await expect.poll(() => page.getByTestId('close-tick-quotes').count()).toBe(1);

      for (const [testId, tick] of [
        ['open-tick', order.openTick],
        ['close-tick', order.closeTick],
      ] as const) {
        if (!tick) continue;
        // The demo walk prices alone: one quote, stamped and received at the tick's own second.
        expect(tick.quotes).toEqual([
          {
            source: 'simulated',
            sourceLabel: 'simulated (demo data)',
            price: tick.price,
            sourceTime: tick.ts,
            receivedAt: tick.ts,
          },
        ]);
        const rows = page.getByTestId(`${testId}-quotes`).locator('tbody tr');
        expect(await rows.count()).toBe(1);
        const clock = tick.ts.slice(11, 23); // hh:mm:ss.mmm in UTC
        expect(await rows.first().locator('th, td').allTextContents()).toEqual([
          'simulated (demo data)',
          priceEn(tick.price),
          clock,
          clock,
        ]);
        expect(await text(page.getByTestId(`${testId}-median`))).toBe(
          `One fresh source: ${priceEn(tick.price)}`,
        );
        expect(await page.getByTestId(`${testId}-median-disagrees`).count()).toBe(0);
      }
      const headers = await page
        .getByTestId('open-tick-quotes')
        .locator('thead th')
        .allTextContents();
      expect(headers).toEqual(['Source', 'Price', 'Source time', 'Received']);

      const rule = await text(page.getByTestId('index-rule'));
      expect(rule).toContain(
        'The price at an instant is the median of each source’s latest price stamped at or before it and at most 5 seconds old',
      );
      expect(rule).toContain(
        'A quote further than the quarantine band from the other sources’ price',
      );
      expect(rule).toContain(
        'With no fresh source no price is recorded, and an order due then is voided and refunded.',
      );
      // The settlement rule the server sends stays beside it.
      expect(await page.getByRole('heading', { name: 'The rule', exact: true }).count()).toBe(1);

      if (order.closeTick) {
        expect(await text(page.getByTestId('signature-none'))).toBe(
          'This tick’s source, simulated (demo data), does not sign its prices, so there is no signature to check.',
        );
        expect(await page.getByRole('button', { name: 'Check the signature' }).count()).toBe(0);
      }
      expect(
        scripts.some((url) => url.includes('pyth-proof')),
        'no verifier without a signature',
      ).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await sectionShot(page, 'verification-en-demo');
      await page.context().close();
    },
  );

  for (const [lang, locale, signedLine, matchLine] of [
    [
      'en',
      'en-US',
      'Signed by Pyth (Wormhole guardian set 4, 13 of 19 signatures) at ',
      'Price 113,319.20 (113,319.19974145 as signed) and its time match the close tick’s Pyth quote.',
    ],
    [
      'zh_CN',
      'zh-CN',
      '由 Pyth 签名（Wormhole 守护者集 4，19 个签名中有 13 个），时间 ',
      '价格 113,319.20（签名值 113,319.19974145）及其时间与平仓报价中的 Pyth 报价一致。',
    ],
    [
      'de',
      'de-DE',
      'Signiert von Pyth (Wormhole-Guardian-Satz 4, 13 von 19 Signaturen) am ',
      'Kurs 113.319,20 (signiert: 113.319,19974145) und seine Zeit stimmen mit dem Pyth-Kurs des Schluss-Ticks überein.',
    ],
  ] as const) {
    it(
      `${lang}, a close tick with Pyth’s signed update: the verifier loads on the button and proves the tick’s Pyth quote`,
      { timeout: 60_000 },
      async () => {
        order ??= await settledOrder(user, placedId);
        if (!order.closeTick) return; // a void order has no close tick to sign
        const page = await phonePage(user, lang, locale);
        const watch = await rewriteOrder(page, (real) => pricedByPyth(real, signedBtc));
        await page.goto(`/ContractDetail?id=${order.id}`);
        const button = page.locator('.tw-signature button');
        await expect.poll(() => button.count()).toBe(1);
        expect(await page.getByTestId('close-tick-quotes').locator('tbody tr').count()).toBe(2);
        expect(await page.getByTestId('close-tick-median-disagrees').count()).toBe(0);
        if (lang === 'en') {
          expect(await text(page.getByTestId('close-tick-median'))).toBe(
            'Median of 2 sources: 113,319.80',
          );
          expect(await text(button)).toBe('Check the signature');
        }
        expect(await seriousViolations(page)).toEqual([]);
        await sectionShot(page, `verification-${lang}-pyth-before`);
        expect(watch.verifierLoaded(), 'the verifier is not part of the page').toBe(false);

        await button.click();
        const result = page.getByTestId('signature-result');
        await expect.poll(() => result.getAttribute('data-proven')).toBe('true');
        expect(watch.verifierLoaded()).toBe(true);
        const lines = await result.locator('strong, p').allTextContents();
        expect(lines[0]).toContain(signedLine);
        expect(lines[0]).toMatch(/17:44:44[.,]000/); // the context's time zone is UTC
        expect(lines[1]).toBe(matchLine);
        expect(lines[2]).toContain(`0x${BTC_USD}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
        await sectionShot(page, `verification-${lang}-pyth-after`);
        await page.context().close();
      },
    );
  }

  it(
    'en, a tampered update: not shown to be signed by Pyth, and why',
    { timeout: 60_000 },
    async () => {
      order ??= await settledOrder(user, placedId);
      if (!order.closeTick) return;
      // One byte of the first guardian signature flipped: past the update's header, the VAA's
      // size (2), its version, set index and count (6) and the signer's index (1).
      const at = (parseAccumulatorUpdate(hexToBytes(signedBtc)).header.length + 2 + 6 + 1) * 2;
      const flipped = (Number.parseInt(signedBtc.slice(at, at + 2), 16) ^ 0xff)
        .toString(16)
        .padStart(2, '0');
      const tampered = `${signedBtc.slice(0, at)}${flipped}${signedBtc.slice(at + 2)}`;
      const page = await phonePage(user, 'en', 'en-US');
      await rewriteOrder(page, (real) => pricedByPyth(real, tampered));
      await page.goto(`/ContractDetail?id=${order.id}`);
      await page.getByRole('button', { name: 'Check the signature' }).click();
      const result = page.getByTestId('signature-result');
      await expect.poll(() => result.getAttribute('data-status')).toBe('failed');
      expect(await result.locator('strong, p').allTextContents()).toEqual([
        'Not shown to be signed by Pyth.',
        'A signature does not match the published keys.',
        `Price feed 0x${BTC_USD}`,
      ]);
      await sectionShot(page, 'verification-en-pyth-tampered');
      await page.context().close();
    },
  );
});
