import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, waitFor } from './browser.ts';
import { type Session, fundedFuturesUser } from './funded-user.ts';
import { TRADE_PIN } from './ready-user.ts';

/**
 * Markets and instant contracts against the real server, whose simulated feed records a
 * price every second and whose settlement worker delivers orders on the real clock (the
 * 30-second waits are real). Each test has its own user, funded by a deposit on the demo's
 * simulated chain and a transfer to the futures account.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;

interface Period {
  id: number;
  seconds: number;
  payoutRate: string;
  feeRate: string;
  minStake: string;
  maxStake: string;
  breakEvenWinRatePct: string;
}
interface Tick {
  id: string;
  price: string;
  ts: string;
  source: string;
}
interface Order {
  id: string;
  publicId: string;
  state: 'open' | 'settled';
  outcome: 'win' | 'loss' | 'tie' | 'void' | null;
  stake: string;
  fee: string;
  payout: string | null;
  profit: string | null;
  openTick: Tick;
  closeTick: Tick | null;
}

const api = <T>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, path, token, body, headers);

let counter = 0;
const key = () => `e2e-contracts-${Date.now()}-${++counter}`;

/** Decimal strings as integers of 10^-scale, compared and summed exactly (never floats). */
const minor = (text: string, scale: number) => {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole + fraction.padEnd(scale, '0'));
  return text.startsWith('-') ? -value : value;
};
/** A USDT amount (6 places) as the English screens show it: grouped, at least two decimals. */
const usdtEn = (amount: bigint) => {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const whole = (abs / 1_000_000n).toLocaleString('en-US');
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
};
/** A rate ("0.002") applied to a USDT stake: the fee rounds up, the winnings round down (the published rule). */
const applyRate = (stakeMinor: bigint, rate: string, roundUp: boolean) => {
  const [, fraction = ''] = rate.split('.');
  const denominator = 10n ** BigInt(fraction.length);
  const product = stakeMinor * minor(rate, fraction.length);
  return roundUp ? (product + denominator - 1n) / denominator : product / denominator;
};

const futuresAvailable = async (user: Session) =>
  (await api<{ futures: { available: string } }>('GET', '/api/v1/wallet/balances', user.token)).data
    .futures.available;

/** A new user holding `usdt` in the futures account (funded-user.ts). */
const fundedUser = (usdt: string) => fundedFuturesUser(baseUrl, usdt, 'contracts');

const config = async (user: Session) =>
  (await api<{ periods: Period[] }>('GET', '/api/v1/contracts/config', user.token)).data;
const order = async (user: Session, id: string) =>
  (await api<Order>('GET', `/api/v1/contracts/order?id=${id}`, user.token)).data;

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

async function phonePage(
  lang: string,
  session: Session,
  locale: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl, locale });
  await context.addInitScript(
    ([token, uid, language]) => {
      localStorage.setItem('token', token as string);
      localStorage.setItem('uid', uid as string);
      localStorage.setItem('lang', language as string);
    },
    [session.token, session.uid, lang],
  );
  return { context, page: await context.newPage() };
}

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

async function noSidewaysScroll(page: Page, label: string) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    label,
  ).toBeLessThanOrEqual(PHONE.width);
}

/** Waits for the price on /Detail to show, then to change: the socket feeds it. */
async function watchPriceMove(page: Page): Promise<[string, string]> {
  await expect.poll(() => text(page, 'detail-price')).toMatch(/^[\d,.]+$/);
  const first = await text(page, 'detail-price');
  await expect
    .poll(() => text(page, 'detail-price'), { timeout: 15_000, message: 'the price moves' })
    .not.toBe(first);
  return [first, await text(page, 'detail-price')];
}

/** Taps Buy up or down until the order popup is up (the bar re-renders with each live price). */
async function openOrderPopup(page: Page, buttonName: string) {
  await expect.poll(() => text(page, 'detail-price')).toMatch(/\d/);
  await expect
    .poll(async () => {
      await page
        .getByRole('button', { name: buttonName, exact: true })
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      return page.getByTestId('order-price').count();
    })
    .toBe(1);
  await page.waitForTimeout(300); // the sheet slides up
}

/** Confirm is on the screen without scrolling: inside the 390×844 viewport. */
async function confirmInView(page: Page, label: string) {
  const box = await page.locator('.tw-order-confirm').boundingBox();
  expect(box, label).not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0), label).toBeLessThanOrEqual(PHONE.height);
  expect(box?.y ?? -1, label).toBeGreaterThanOrEqual(0);
}

/** The largest stake whose stake + fee (rounded up) fits in `budget`, found by bisection. */
function largestStake(budget: bigint, feeRate: string): bigint {
  let low = 0n;
  let high = budget;
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    if (mid + applyRate(mid, feeRate, true) <= budget) low = mid;
    else high = mid - 1n;
  }
  return low;
}

/** Minor units of USDT as the amount field holds them: plain digits, no trailing zeros. */
const plainUsdt = (amount: bigint) => {
  const fraction = (amount % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${amount / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
};

describe('markets and instant contracts in Chromium at 390×844', () => {
  it(
    'en: live price and chart on /Detail, a 30 s order with its disclosure, countdown and result, then /Contract and /ContractDetail with both ticks',
    { timeout: 150_000 },
    async () => {
      const user = await fundedUser('200');
      const { context, page } = await phonePage('en', user, 'en-US');
      const scripts: string[] = [];
      page.on(
        'request',
        (request) => request.resourceType() === 'script' && scripts.push(request.url()),
      );
      // What the one socket carries: channels received, and the ops the page sent.
      const received = new Set<string>();
      const sent: { op?: string; channel?: string }[] = [];
      let sockets = 0;
      page.on('websocket', (ws) => {
        sockets += 1;
        ws.on('framereceived', (frame) => {
          const channel = (JSON.parse(String(frame.payload)) as { channel?: string }).channel;
          if (channel) received.add(channel);
        });
        ws.on('framesent', (frame) =>
          sent.push(JSON.parse(String(frame.payload)) as { op?: string; channel?: string }),
        );
      });

      // Home loads without the chart library; /Detail loads it on demand.
      await page.goto('/');
      await expect
        .poll(() => page.locator('[data-testid="price-BTCUSDT"]').first().textContent())
        .toMatch(/^[\d,.]+$/);
      expect(
        scripts.some((url) => url.includes('candle-chart')),
        'no chart code on Home',
      ).toBe(false);
      await page.goto('/Detail?symbol=BTCUSDT');
      const [first, second] = await watchPriceMove(page);
      expect(second).not.toBe(first);
      expect(scripts.some((url) => url.includes('candle-chart'))).toBe(true);
      await expect
        .poll(() => page.locator('[data-testid="candle-chart"] canvas').count())
        .toBeGreaterThan(0);
      expect(await page.getByTestId('price-source').textContent()).toBe(
        'Prices: simulated (demo data)',
      );
      await expect
        .poll(() => [...received])
        .toEqual(expect.arrayContaining(['ticker.BTCUSDT', 'kline.BTCUSDT.1m']));
      // One socket per page load (Home, then /Detail), each authenticated once with the session.
      expect(sockets).toBe(2);
      expect(sent.filter((m) => m.op === 'auth')).toHaveLength(2);

      // The interval switch: 5m is selected and kept in the address; back to 1m.
      await page.getByRole('tab', { name: '5m', exact: true }).click();
      await expect
        .poll(() =>
          page.getByRole('tab', { name: '5m', exact: true }).getAttribute('aria-selected'),
        )
        .toBe('true');
      expect(new URL(page.url()).searchParams.get('interval')).toBe('5m');
      await expect
        .poll(() => page.locator('[data-testid="candle-chart"][data-interval="5m"] canvas').count())
        .toBeGreaterThan(0);
      // The socket follows: the 1m candles are dropped, the 5m ones arrive.
      await expect.poll(() => received.has('kline.BTCUSDT.5m')).toBe(true);
      expect(sent).toContainEqual({
        op: 'unsubscribe',
        channels: ['kline.BTCUSDT.1m'],
        id: expect.any(Number),
      });
      await page.getByRole('tab', { name: '1m', exact: true }).click();
      await expect
        .poll(() =>
          page.getByRole('tab', { name: '1m', exact: true }).getAttribute('aria-selected'),
        )
        .toBe('true');

      // The star adds the market to the user's favourites.
      await page.getByRole('button', { name: 'Add to favourites' }).click();
      await expect
        .poll(
          async () =>
            (await api<{ symbols: string[] }>('GET', '/api/v1/market/favorites', user.token)).data
              .symbols,
        )
        .toContain('BTCUSDT');
      expect(
        await page
          .getByRole('button', { name: 'Remove from favourites' })
          .getAttribute('aria-pressed'),
      ).toBe('true');
      await page.waitForTimeout(1500); // a few more candles' worth of ticks for the picture
      await screenshot(page, 'en-Detail');
      await noSidewaysScroll(page, '/Detail');

      // The order popup: period with payout, limits, and every figure before confirming.
      const { periods } = await config(user);
      const period = periods.find((p) => p.seconds === 30);
      if (!period) throw new Error('no 30 s period configured');
      await page.getByRole('button', { name: 'Buy up' }).click();
      const amount = page.locator('input[aria-label="Amount (USDT)"]');
      // Below the period's minimum: Confirm stays off and the line under the amount says why.
      await amount.fill('5');
      const minStake = usdtEn(minor(period.minStake, 6)).replace(/\.00$/, '');
      await expect
        .poll(() => text(page, 'order-reason'))
        .toBe(`The minimum for this period is ${minStake} USDT.`);
      expect(await page.getByRole('button', { name: 'Confirm buy up' }).isDisabled()).toBe(true);
      await amount.fill('10');
      // Every order is confirmed with the trading password (spec §5).
      await page.locator('input[aria-label="Trading password"]').fill(TRADE_PIN);
      const stake = 10_000_000n;
      const fee = applyRate(stake, period.feeRate, true);
      const payout = stake + applyRate(stake, period.payoutRate, false);
      await expect.poll(() => text(page, 'order-fee')).toBe(`${usdtEn(fee)} USDT`);
      expect(await text(page, 'order-payout')).toBe(
        `${usdtEn(payout)} USDTprofit ${usdtEn(payout - stake - fee)} USDT`,
      );
      expect(await text(page, 'order-break-even')).toBe(`${period.breakEvenWinRatePct}%`);
      for (const rule of [
        'Tie: if the price at delivery equals the opening price',
        'Void: if no price was recorded in the 5 seconds before delivery',
        'Buy up wins if the price at delivery is higher',
      ]) {
        expect(await page.getByText(rule).count(), rule).toBe(1);
      }
      await page.waitForTimeout(300); // the sheet slides up
      await screenshot(page, 'en-Detail-order');

      const before = minor(await futuresAvailable(user), 6);
      await page.getByRole('button', { name: 'Confirm buy up' }).click();
      // The delivery popup counts down from 30 s.
      await expect.poll(() => text(page, 'delivery-countdown')).toMatch(/^0:[0-3]\d$/);
      const countdownA = Number((await text(page, 'delivery-countdown')).split(':')[1]);
      expect(countdownA).toBeLessThanOrEqual(30);
      await expect
        .poll(() => text(page, 'delivery-countdown').then((t) => Number(t.split(':')[1] ?? 99)))
        .toBeLessThan(countdownA);
      expect(minor(await futuresAvailable(user), 6)).toBe(before - stake - fee);
      await screenshot(page, 'en-Detail-delivery');

      // The result arrives with the settled event.
      await expect
        .poll(() => page.getByTestId('delivery-result').count(), { timeout: 60_000, interval: 500 })
        .toBe(1);
      await page.waitForTimeout(300);
      await screenshot(page, 'en-Detail-result');
      const settled = (
        await api<{ items: Order[] }>('GET', '/api/v1/contracts/orders?state=settled', user.token)
      ).data.items;
      expect(settled).toHaveLength(1);
      const placed = settled[0] as Order;
      expect(placed.state).toBe('settled');
      expect(placed.fee).toBe(usdtEn(fee).replace(/\.?0+$/, ''));
      const outcomeText = { win: 'Win', loss: 'Loss', tie: 'Tie', void: 'Void' }[
        placed.outcome ?? 'void'
      ];
      expect(await page.getByTestId('delivery-result').locator('strong').textContent()).toBe(
        outcomeText,
      );
      const profit = minor(placed.profit ?? '0', 6);
      expect(await text(page, 'delivery-profit')).toBe(
        `${profit > 0n ? '+' : ''}${usdtEn(profit)} USDT`,
      );
      expect(await text(page, 'delivery-payout')).toBe(
        `${usdtEn(minor(placed.payout ?? '0', 6))} USDT`,
      );
      // The money matches: the stake and fee left, the payout came back.
      expect(minor(await futuresAvailable(user), 6)).toBe(
        before - stake - fee + minor(placed.payout ?? '0', 6),
      );

      // /ContractDetail: the figures and the verification section with both ticks and the replay.
      await page.getByRole('button', { name: 'Details' }).click();
      await page.waitForURL(`${baseUrl}/ContractDetail?id=${placed.id}`);
      await expect.poll(() => text(page, 'detail-stake')).toBe('10.00 USDT');
      // BTC/USDT has two price places: grouped and padded like the screen.
      const price = (value: string) => {
        const [whole = '0', fraction = ''] = value.split('.');
        return `${BigInt(whole).toLocaleString('en-US')}.${fraction.padEnd(2, '0')}`;
      };
      expect(await text(page, 'open-tick-price')).toBe(price(placed.openTick.price));
      expect(await text(page, 'open-tick-source')).toBe('simulated (demo data)');
      if (placed.closeTick) {
        expect(await text(page, 'close-tick-price')).toBe(price(placed.closeTick.price));
        expect(await text(page, 'close-tick-source')).toBe('simulated (demo data)');
        expect(Date.parse(placed.closeTick.ts)).toBeGreaterThan(Date.parse(placed.openTick.ts));
      }
      expect(await text(page, 'detail-outcome')).toBe(outcomeText);
      expect(await page.getByTestId('verify-comparison').textContent()).toMatch(
        /^[\d,.]+ [<>=] [\d,.]+: /,
      );
      await page.getByRole('button', { name: 'Check with the public replay' }).click();
      await expect
        .poll(() => page.getByTestId('replay-result').getAttribute('data-agrees'))
        .toBe('true');
      expect(await page.getByText('The replay agrees with this result.').count()).toBe(1);
      await screenshot(page, 'en-ContractDetail');
      await noSidewaysScroll(page, '/ContractDetail');

      // /Contract, settled tab: the order is there and opens its detail.
      await page.goto('/Contract?tab=settled');
      await expect.poll(() => page.locator(`[data-order-id="${placed.id}"]`).count()).toBe(1);
      expect(await page.locator(`[data-order-id="${placed.id}"]`).textContent()).toContain(
        outcomeText,
      );
      await screenshot(page, 'en-Contract');
      await page.locator(`[data-order-id="${placed.id}"]`).click();
      await page.waitForURL(`${baseUrl}/ContractDetail?id=${placed.id}`);

      // The user's own daily loss limit, set on /Contract.
      await page.goto('/Contract');
      await page.getByRole('button', { name: 'Set' }).click();
      await page.locator('input[aria-label="Limit (USDT)"]').fill('50');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => text(page, 'loss-limit'))
        .toMatch(/^[\d.,]+ of 50\.00 USDT used today$/);
      expect(
        (
          await api<{ dailyLossLimit: string | null }>(
            'GET',
            '/api/v1/contracts/config',
            user.token,
          )
        ).data.dailyLossLimit,
      ).toBe('50');

      // An open order (placed through the API) shows with its countdown on Home, /Transaction and /Contract.
      const longest = periods.reduce((a, b) => (b.seconds > a.seconds ? b : a));
      const running = await api<{ order: Order }>(
        'POST',
        '/api/v1/contracts/orders',
        user.token,
        {
          symbol: 'ETHUSDT',
          direction: 'down',
          periodId: longest.id,
          amount: '12',
          tradePassword: TRADE_PIN,
        },
        { 'idempotency-key': key() },
      );
      expect(running.code).toBe(0);
      const openId = running.data.order.id;
      await page.goto('/');
      await expect
        .poll(() =>
          page.locator(`[data-order-id="${openId}"] [data-testid="order-countdown"]`).textContent(),
        )
        .toMatch(/^\d+:\d\d$/);
      await expect
        .poll(() => page.locator('[data-testid="price-EURUSD"]').textContent())
        .toMatch(/^[\d.]+$/);
      await screenshot(page, 'en-Home');
      await noSidewaysScroll(page, '/');
      await page.goto('/Transaction');
      await expect
        .poll(() =>
          page.locator(`[data-testid="positions-open"] [data-order-id="${openId}"]`).count(),
        )
        .toBe(1);
      await expect
        .poll(() => page.locator('[data-testid="price-ETHUSDT"]').textContent())
        .toMatch(/^[\d,.]+$/);
      await screenshot(page, 'en-Transaction');
      await page.locator('.adm-tabs-tab', { hasText: 'Favourites' }).click();
      await expect
        .poll(() => page.locator('.tw-quote-row[data-symbol="BTCUSDT"]:visible').count())
        .toBe(1);
      await page.locator('.adm-tabs-tab', { hasText: 'Commodities' }).click();
      await expect
        .poll(() => page.locator('.tw-quote-row[data-symbol="XAUUSD"]:visible').count())
        .toBe(1);
      await screenshot(page, 'en-Transaction-commodities');
      await page.goto('/Contract');
      await expect
        .poll(() => page.locator(`[data-order-id="${openId}"]`).textContent())
        .toContain('In progress');
      await context.close();
    },
  );

  it(
    'de: the order and delivery popups, the result by polling while the socket is down, then the socket comes back',
    { timeout: 150_000 },
    async () => {
      const user = await fundedUser('100');
      const { context, page } = await phonePage('de', user, 'de-DE');
      // The page's WebSocket goes through this proxy, which the test can cut.
      let socketUp = true;
      const live = new Set<WebSocketRoute>();
      await context.routeWebSocket(/\/ws$/, (ws) => {
        if (!socketUp) return void ws.close();
        live.add(ws);
        ws.connectToServer();
        ws.onClose(() => live.delete(ws));
      });

      await page.goto('/Detail?symbol=ETHUSDT');
      await watchPriceMove(page);
      await expect
        .poll(() => page.locator('[data-testid="candle-chart"] canvas').count())
        .toBeGreaterThan(0);
      await screenshot(page, 'de-Detail');
      await page.getByRole('button', { name: 'Fallend kaufen' }).click();
      await page.locator('input[aria-label="Betrag (USDT)"]').fill('10');
      await expect.poll(() => text(page, 'order-fee')).toMatch(/^0,\d+ USDT$/);
      expect(
        await page
          .getByText('Unentschieden: Ist der Kurs bei Lieferung gleich dem Eröffnungskurs')
          .count(),
      ).toBe(1);
      await page.waitForTimeout(300);
      await screenshot(page, 'de-Detail-order');
      await page.locator('input[aria-label="Handelspasswort"]').fill(TRADE_PIN);
      await page.getByRole('button', { name: 'Fallend kaufen bestätigen' }).click();
      await expect.poll(() => text(page, 'delivery-countdown')).toMatch(/^0:[0-3]\d$/);
      await screenshot(page, 'de-Detail-delivery');
      const orderId = (
        await api<{ items: Order[] }>('GET', '/api/v1/contracts/orders?state=open', user.token)
      ).data.items[0]?.id;
      if (!orderId) throw new Error('the order is not listed as open');

      // Cut the socket: the popup says so and asks the server every 2 s instead.
      socketUp = false;
      for (const ws of live) await ws.close();
      await expect.poll(() => page.getByText('Live-Verbindung unterbrochen').count()).toBe(1);
      await expect
        .poll(() => page.getByTestId('delivery-result').count(), { timeout: 60_000, interval: 500 })
        .toBe(1);
      expect((await order(user, orderId)).state).toBe('settled');
      await page.waitForTimeout(300);
      await screenshot(page, 'de-Detail-result');

      // The socket comes back (the browser is online again): subscriptions are restored and prices move.
      socketUp = true;
      await page.getByRole('button', { name: 'Erneut handeln' }).click();
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect.poll(() => live.size, { timeout: 20_000 }).toBeGreaterThan(0);
      await watchPriceMove(page);

      // Home, /Transaction and /Contract with a running order; /ContractDetail of the settled one.
      const { periods } = await config(user);
      const longest = periods.reduce((a, b) => (b.seconds > a.seconds ? b : a));
      const running = await api<{ order: Order }>(
        'POST',
        '/api/v1/contracts/orders',
        user.token,
        {
          symbol: 'BTCUSDT',
          direction: 'up',
          periodId: longest.id,
          amount: '10',
          tradePassword: TRADE_PIN,
        },
        { 'idempotency-key': key() },
      );
      expect(running.code).toBe(0);
      await page.goto('/');
      await expect
        .poll(() => page.locator(`[data-order-id="${running.data.order.id}"]`).textContent())
        .toContain('Läuft');
      await expect
        .poll(() => page.locator('[data-testid="price-XAUUSD"]').textContent())
        .toMatch(/^[\d.,]+$/);
      await screenshot(page, 'de-Home');
      await noSidewaysScroll(page, 'de /');
      await page.goto('/Transaction');
      await expect
        .poll(() =>
          page
            .locator(`[data-testid="positions-open"] [data-order-id="${running.data.order.id}"]`)
            .count(),
        )
        .toBe(1);
      await screenshot(page, 'de-Transaction');
      await page.goto('/Contract?tab=settled');
      await expect.poll(() => page.locator(`[data-order-id="${orderId}"]`).count()).toBe(1);
      await screenshot(page, 'de-Contract');
      await page.goto(`/ContractDetail?id=${orderId}`);
      await expect
        .poll(() => page.getByTestId('open-tick-source').textContent())
        .toBe('simuliert (Demodaten)');
      await page
        .getByRole('button', { name: 'Mit der öffentlichen Nachberechnung prüfen' })
        .click();
      await expect
        .poll(() => page.getByTestId('replay-result').getAttribute('data-agrees'))
        .toBe('true');
      await screenshot(page, 'de-ContractDetail');
      await noSidewaysScroll(page, 'de /ContractDetail');
      await context.close();
    },
  );

  it(
    'the order popup: quick amounts, Max within balance and fee, the reason Confirm is off, a close button, the live price; en, zh_CN, de',
    { timeout: 150_000 },
    async () => {
      const balance = '123.45';
      const user = await fundedUser(balance);
      const { periods } = await config(user);
      const period = periods[0] as Period;
      const balanceMinor = minor(balance, 6);

      // zh_CN and de first: each popup fits, says why Confirm is off, and closes with its × button.
      for (const [lang, locale, buy, close, reason] of [
        ['zh_CN', 'zh-CN', '买涨', '关闭', '最多只能输入 6 位小数。'],
        [
          'de',
          'de-DE',
          'Steigend kaufen',
          'Schließen',
          'Höchstens 6 Nachkommastellen sind erlaubt.',
        ],
      ] as const) {
        const { context, page } = await phonePage(lang, user, locale);
        await page.goto('/Detail?symbol=BTCUSDT');
        await openOrderPopup(page, buy);
        await expect.poll(() => text(page, 'order-reason')).toMatch(/10.*10[.,]000/);
        await confirmInView(page, `${lang} Confirm without scrolling`);
        await page.locator('.tw-order-quick button').nth(1).click();
        await expect
          .poll(() => page.locator('.tw-order-body input[inputmode="decimal"]').inputValue())
          .toBe('61.725');
        expect(await page.locator('.tw-order-confirm').isDisabled()).toBe(false);
        await page.locator('.tw-order-body input[inputmode="decimal"]').fill('1.1234567');
        await expect.poll(() => text(page, 'order-reason')).toBe(reason);
        expect(await page.locator('.tw-order-confirm').isDisabled()).toBe(true);
        await noSidewaysScroll(page, `${lang} order popup`);
        await screenshot(page, `${lang}-Detail-order-popup`);
        await page.getByRole('button', { name: close, exact: true }).click();
        await expect.poll(() => page.getByTestId('order-price').count()).toBe(0);
        await context.close();
      }

      const { context, page } = await phonePage('en', user, 'en-US');
      await page.goto('/Detail?symbol=BTCUSDT');
      await openOrderPopup(page, 'Buy up');
      const dialog = page.locator('.tw-order');
      await expect
        .poll(() => dialog.textContent())
        .toContain(`Available in futures: ${usdtEn(balanceMinor)} USDT`);
      // Nothing typed yet: Confirm is off and the line says what to enter.
      const confirm = page.getByRole('button', { name: 'Confirm buy up' });
      expect(await confirm.isDisabled()).toBe(true);
      expect(await text(page, 'order-reason')).toBe('Enter an amount from 10 to 10,000 USDT.');
      await confirmInView(page, 'en Confirm without scrolling');

      // The × closes the sheet; it opens again from Buy up.
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await expect.poll(() => page.getByTestId('order-price').count()).toBe(0);
      await openOrderPopup(page, 'Buy up');

      // The opening price follows the live ticker, in tabular figures.
      const livePrice = page.getByTestId('order-price');
      expect(await livePrice.evaluate((node) => getComputedStyle(node).fontVariantNumeric)).toBe(
        'tabular-nums',
      );
      const firstPrice = await text(page, 'order-price');
      expect(firstPrice).toMatch(/^[\d,]+\.\d\d$/);
      await expect
        .poll(() => text(page, 'order-price'), { timeout: 15_000, message: 'the price moves' })
        .not.toBe(firstPrice);
      await expect
        .poll(async () => (await text(page, 'order-price')) === (await text(page, 'detail-price')))
        .toBe(true);

      // 50 % is half the balance, exactly.
      const amount = page.locator('input[aria-label="Amount (USDT)"]');
      await page.getByRole('button', { name: '50%', exact: true }).click();
      await expect.poll(() => amount.inputValue()).toBe(plainUsdt(balanceMinor / 2n));
      expect(await confirm.isDisabled()).toBe(false);

      // Seven decimals: the reason is under the amount and Confirm is off.
      await amount.fill('1.1234567');
      await expect
        .poll(() => text(page, 'order-reason'))
        .toBe('At most 6 decimal places are allowed.');
      expect(await page.getByTestId('order-reason').isVisible()).toBe(true);
      expect(await confirm.isDisabled()).toBe(true);
      await confirmInView(page, 'en Confirm with a reason shown');
      await screenshot(page, 'en-Detail-order-popup');

      // More than the balance once the fee is on top.
      await amount.fill(balance);
      const fullFee = applyRate(balanceMinor, period.feeRate, true);
      await expect
        .poll(() => text(page, 'order-reason'))
        .toBe(
          `Amount + fee is ${usdtEn(balanceMinor + fullFee)} USDT, more than your ${usdtEn(balanceMinor)} USDT available.`,
        );
      expect(await page.getByRole('link', { name: 'Transfer in' }).count()).toBe(1);
      expect(await confirm.isDisabled()).toBe(true);

      // Max: the largest stake whose stake + fee fits the balance.
      await page.getByRole('button', { name: 'Max', exact: true }).click();
      const maxStake = largestStake(balanceMinor, period.feeRate);
      await expect.poll(() => amount.inputValue()).toBe(plainUsdt(maxStake));
      expect(await page.getByTestId('order-reason').count()).toBe(0);
      const lockedShown = await text(page, 'order-total');
      await page.locator('input[aria-label="Trading password"]').fill(TRADE_PIN);
      await screenshot(page, 'en-Detail-order-popup-max');
      await confirm.click();
      await expect.poll(() => text(page, 'delivery-countdown')).toMatch(/^0:[0-3]\d$/);
      const placed = (
        await api<{ items: Order[] }>('GET', '/api/v1/contracts/orders?state=open', user.token)
      ).data.items[0];
      if (!placed) throw new Error('the Max order is not listed as open');
      const locked = minor(placed.stake, 6) + minor(placed.fee, 6);
      expect(minor(placed.stake, 6)).toBe(maxStake);
      expect(locked).toBeLessThanOrEqual(balanceMinor);
      expect(lockedShown).toBe(`${usdtEn(locked)} USDT`);
      // What the screen said would be locked is what left the available balance.
      expect(minor(await futuresAvailable(user), 6)).toBe(balanceMinor - locked);
      await context.close();
    },
  );
});
