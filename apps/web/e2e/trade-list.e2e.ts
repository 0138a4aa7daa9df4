import crypto from 'node:crypto';
import type { Candle, Ticker } from '@tradewind/contract/market';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';
import { suiteServer } from './suite-server.ts';

/**
 * The Trade list (/Transaction): search, sort by change, volume or name, and a 24 h trend line
 * under every price, drawn from the demo's simulated history (a day of it in this suite).
 */
const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT: Record<
  string,
  { search: string; change: string; volume: string; name: string; none: string }
> = {
  en: {
    search: 'Search markets',
    change: 'Change',
    volume: 'Volume',
    name: 'Name',
    none: 'No market matches “zzz”.',
  },
  zh_CN: {
    search: '搜索市场',
    change: '涨跌幅',
    volume: '成交额',
    name: '名称',
    none: '没有与“zzz”匹配的市场。',
  },
  de: {
    search: 'Märkte suchen',
    change: 'Änderung',
    volume: 'Volumen',
    name: 'Name',
    none: 'Kein Markt passt zu „zzz“.',
  },
};

const rowSymbols = (page: Page) =>
  page
    .locator('.tw-trade-list .tw-quote-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-symbol') ?? ''));

async function tickers(): Promise<Map<string, Ticker>> {
  const reply = (await (await fetch(`${baseUrl}/api/v1/market/tickers`)).json()) as {
    data: { items: Ticker[] };
  };
  return new Map(reply.data.items.map((ticker) => [ticker.symbol, ticker]));
}

describe('the Trade list', () => {
  it.each(Object.keys(TEXT))(
    '%s: search narrows the list, each sort orders it both ways, and every row has its trend line',
    { timeout: 180_000 },
    async (language) => {
      const text = TEXT[language] as (typeof TEXT)['en'];
      const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signIn(
          page,
          await registerByApi(
            baseUrl,
            `trade-${crypto.randomBytes(4).toString('hex')}@example.com`,
          ),
          language,
        );
        await page.goto('/Transaction');
        // The suite's server may still be writing its day of history (it started with this run).
        await expect.poll(() => rowSymbols(page), { timeout: 30_000 }).toHaveLength(8);
        // Every row draws its last 24 hours once the history is there (a day, written in the
        // background when the suite's server started): wait for it, then load the list again.
        await expect
          .poll(
            async () => {
              const reply = (await (await fetch(`${baseUrl}/api/v1/market/sparklines`)).json()) as {
                data: { items: { symbol: string; closes: string[] }[] };
              };
              return reply.data.items.filter(
                (item) => item.symbol.endsWith('USDT') && item.closes.length === 24,
              ).length;
            },
            { timeout: 90_000, interval: 2_000 },
          )
          .toBe(8);
        await page.reload();
        await expect
          .poll(() => page.locator('.tw-trade-list svg.tw-sparkline polyline').count(), {
            timeout: 20_000,
          })
          .toBe(8);
        const points = await page
          .locator('.tw-trade-list svg.tw-sparkline polyline')
          .first()
          .getAttribute('points');
        expect(points?.split(' ').length).toBeGreaterThanOrEqual(20);
        await screenshot(page, `${language}-trade-list`);

        // Search: by pair, case aside; nothing found says so.
        const search = page.getByPlaceholder(text.search);
        await search.fill('eth');
        await expect.poll(() => rowSymbols(page)).toEqual(['ETHUSDT']);
        await search.fill('zzz');
        await expect.poll(() => page.getByTestId('no-match').textContent()).toBe(text.none);
        await search.fill('');
        await expect.poll(() => rowSymbols(page)).toHaveLength(8);

        expect(
          await page
            .locator('button[data-sort]')
            .evaluateAll((buttons) => buttons.map((button) => button.textContent)),
        ).toEqual([text.change, text.volume, text.name]);
        // Change: largest first, then, tapped again, smallest first.
        await page.locator('button[data-sort="change"]').click();
        const byChange = async () => {
          const now = await tickers();
          return (await rowSymbols(page)).map((symbol) => Number(now.get(symbol)?.changePct));
        };
        await expect
          .poll(async () => {
            const values = await byChange();
            return values.every((value, i) => i === 0 || (values[i - 1] as number) >= value);
          })
          .toBe(true);
        await page.locator('button[data-sort="change"]').click();
        await expect
          .poll(async () => {
            const values = await byChange();
            return values.every((value, i) => i === 0 || (values[i - 1] as number) <= value);
          })
          .toBe(true);
        expect(page.url()).toContain('sort=change');
        expect(page.url()).toContain('order=asc');

        // Volume in USDT (base volume × price), largest first.
        await page.locator('button[data-sort="volume"]').click();
        await expect
          .poll(async () => {
            const now = await tickers();
            const values = (await rowSymbols(page)).map((symbol) => {
              const ticker = now.get(symbol);
              return Number(ticker?.volume24h) * Number(ticker?.price);
            });
            // Prices tick between the reads: ordered within a tenth of a percent.
            return values.every(
              (value, i) => i === 0 || (values[i - 1] as number) >= value * 0.999,
            );
          })
          .toBe(true);

        // Name: A to Z.
        await page.locator('button[data-sort="name"]').click();
        await expect
          .poll(() => rowSymbols(page))
          .toEqual([
            'BNBUSDT',
            'BTCUSDT',
            'DOGEUSDT',
            'ETHUSDT',
            'LTCUSDT',
            'SOLUSDT',
            'TRXUSDT',
            'XRPUSDT',
          ]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
        await screenshot(page, `${language}-trade-list-by-name`);
      } finally {
        await context.close();
      }
    },
  );
});

const LEGEND: Record<string, { tag: string; close: string; ma7: string }> = {
  en: { tag: 'en-US', close: 'C', ma7: 'MA(7)' },
  zh_CN: { tag: 'zh-CN', close: '收', ma7: 'MA(7)' },
  de: { tag: 'de-DE', close: 'S', ma7: 'GD(7)' },
};

async function candles(): Promise<Candle[]> {
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/market/klines?symbol=BTCUSDT&interval=1m`)
  ).json()) as { data: { items: Candle[] } };
  return reply.data.items;
}

/** BTC/USDT's closes in cents (its price scale is 2), averaged and rounded half up. */
function average(closes: string[]): string {
  const cents = closes.map((close) => {
    const [whole, fraction = ''] = close.split('.');
    return BigInt(`${whole}${fraction.padEnd(2, '0')}`);
  });
  const n = BigInt(cents.length);
  const mean = (2n * cents.reduce((a, b) => a + b, 0n) + n) / (2n * n);
  return `${mean / 100n}.${String(mean % 100n).padStart(2, '0')}`;
}

describe('the chart on /Detail', () => {
  it.each(Object.keys(LEGEND))(
    '%s: the legend gives the newest candle and MA(7) exactly, and the crosshair candle on hover; figures never wrap',
    { timeout: 120_000 },
    async (language) => {
      const legend = LEGEND[language] as (typeof LEGEND)['en'];
      const price = (value: string) =>
        new Intl.NumberFormat(legend.tag, { minimumFractionDigits: 2 }).format(Number(value));
      const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        const email = `chart-${crypto.randomBytes(4).toString('hex')}@example.com`;
        await signIn(page, await registerByApi(baseUrl, email), language);
        await page.goto('/Detail?symbol=BTCUSDT');
        const chart = page.getByTestId('candle-chart');
        await chart.locator('canvas').first().waitFor();
        expect(await page.getByTestId('chart-legend').locator('dt').allTextContents()).toContain(
          legend.ma7,
        );

        // MA(7) is the exact average of the six closes before the newest candle (as the API has
        // them) and the newest close as the legend shows it: the newest candle moves with every
        // tick, so the page and a read of the API a moment apart may differ by one tick. That
        // close is the API's newest within 1 % (a new minute between the reads: read again).
        const decimal = (shown: string) =>
          language === 'de' ? shown.replace(/\./g, '').replace(',', '.') : shown.replace(/,/g, '');
        await expect
          .poll(async () => {
            const shownClose = (await page.getByTestId('legend-c').textContent()) ?? '';
            const shownAverage = await page.getByTestId('legend-ma7').textContent();
            const items = await candles();
            const newest = Number(items.at(-1)?.c);
            const closes = [...items.slice(-7, -1).map((candle) => candle.c), decimal(shownClose)];
            return (
              shownAverage === price(average(closes)) &&
              Math.abs(Number(decimal(shownClose)) - newest) <= newest * 0.01
            );
          })
          .toBe(true);

        // Under the crosshair, an earlier candle: its four prices are one candle's of the API.
        await chart.scrollIntoViewIfNeeded();
        const box = (await chart.boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
        await expect
          .poll(async () => {
            const shown = await Promise.all(
              ['o', 'h', 'l', 'c'].map((part) => page.getByTestId(`legend-${part}`).textContent()),
            );
            const items = await candles();
            const index = items.findIndex(
              (candle) =>
                [candle.o, candle.h, candle.l, candle.c].map(price).join(' ') === shown.join(' '),
            );
            return index >= 0 && index < items.length - 1;
          })
          .toBe(true);

        // Each figure on one line (a long label wraps instead).
        const wrapped = await page
          .locator('.tw-detail-stats dd, .tw-chart-legend dd')
          .evaluateAll((cells) =>
            cells
              .filter((cell) => cell.getClientRects().length > 0)
              .filter((cell) => {
                // The lines the text takes: the distinct tops of its boxes.
                const range = document.createRange();
                range.selectNodeContents(cell);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                return tops.size > 1;
              })
              .map((cell) => cell.textContent),
          );
        expect(wrapped).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
        await screenshot(page, `${language}-detail-chart`);
      } finally {
        await context.close();
      }
    },
  );
});
