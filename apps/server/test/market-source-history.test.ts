import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candle, InstrumentSymbol } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type HistorySource,
  HistoryRequestError,
  backfillSourceHistory,
  binanceHistory,
  parseBinanceKlines,
  parsePythHistory,
  pythHistory,
} from '../src/modules/market/source-history.ts';
import { PYTH_FEEDS } from '../src/modules/market/pyth/feed-ids.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import { recordAt } from './contracts.ts';
import { type TestApp, call, createTestApp } from './harness.ts';

/** Issue 32: the real sources' own history before the first recorded minute. */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const readJson = (file: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(fixtures, file), 'utf8'));

const MINUTE = 60_000;
const DAY = 86_400_000;

describe("the sources' history replies", () => {
  it("reads Binance's recorded klines reply exactly, prices and volume as integers", () => {
    const page = parseBinanceKlines('LTCUSDT', readJson('binance/klines-ltcusdt-1m.json'));
    expect(page.rejected).toBe(0);
    expect(page.candles).toEqual([
      {
        openTimeMs: Date.UTC(2026, 5, 20, 2, 54),
        open: 4388n,
        high: 4390n,
        low: 4387n,
        close: 4390n,
        volume: 4_494_300_000n,
      },
      {
        openTimeMs: Date.UTC(2026, 5, 20, 2, 55),
        open: 4389n,
        high: 4389n,
        low: 4388n,
        close: 4389n,
        volume: 1_130_100_000n,
      },
      {
        openTimeMs: Date.UTC(2026, 5, 20, 2, 56),
        open: 4389n,
        high: 4389n,
        low: 4388n,
        close: 4388n,
        volume: 322_300_000n,
      },
    ]);
  });

  it('refuses and counts malformed klines rows, and throws on a reply that is not a list', () => {
    const good = [1781924040000, '43.88', '43.90', '43.87', '43.90', '44.943', 0, '0', 1, '0', '0'];
    const rows = [
      good,
      [1781924040001, ...good.slice(1)], // not a whole minute
      [1781924100000, '43.88', '43.80', '43.87', '43.90', '1'], // high below the open
      [1781924160000, '43.88', '43.90', '0', '0', '1'], // a zero price
      [1781924220000, 'abc', '43.90', '43.87', '43.90', '1'],
      [1781924280000, '43.88', '43.90', '43.87', '43.90', '-1'], // negative volume
      ['1781924340000', '43.88', '43.90', '43.87', '43.90', '1'], // time as text
      [1781924400000, 43.88, 43.9, 43.87, 43.9, '1'], // prices as numbers
      'not a row',
      null,
    ];
    const page = parseBinanceKlines('LTCUSDT', rows);
    expect(page.candles.map((c) => c.openTimeMs)).toEqual([1781924040000]);
    expect(page.rejected).toBe(rows.length - 1);
    for (const body of [{ code: -1121, msg: 'Invalid symbol.' }, 'x', null]) {
      const error = (() => {
        try {
          parseBinanceKlines('LTCUSDT', body);
        } catch (caught) {
          return caught;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(HistoryRequestError);
      expect((error as HistoryRequestError).retryable).toBe(false);
    }
  });

  it("reads Pyth's history format exactly, through each number's decimal text, with no volume", () => {
    const page = parsePythHistory('XAUUSD', readJson('pyth/history-xauusd-1m.json'));
    expect(page.rejected).toBe(0);
    expect(page.candles[1]).toEqual({
      openTimeMs: 1795262460_000,
      // 2650.455 at 2 decimals rounds half up.
      open: 265046n,
      high: 265120n,
      low: 265030n,
      close: 265100n,
      volume: 0n,
    });
    expect(page.candles.map((c) => c.close)).toEqual([265045n, 265100n, 265080n]);
    // A float that is not its decimal in binary (1.0850000000000002) keeps the instrument's digits.
    const eur = parsePythHistory('EURUSD', {
      s: 'ok',
      t: [1795262400],
      o: [1.0850000000000002],
      h: [1.08512],
      l: [1.08497],
      c: [1.085],
      v: [0],
    });
    expect(eur.candles[0]).toMatchObject({ open: 108500n, high: 108512n, low: 108497n });
  });

  it("treats no_data as an empty page, refuses Pyth's errors and malformed rows", () => {
    expect(parsePythHistory('XAUUSD', { s: 'no_data', nextTime: 1795262400 })).toEqual({
      candles: [],
      rejected: 0,
    });
    expect(() =>
      parsePythHistory('XAUUSD', { s: 'error', errmsg: 'Symbol not found: Metal.XAU/USDX' }),
    ).toThrow(/error \(Symbol not found: Metal\.XAU\/USDX\)/);
    expect(() => parsePythHistory('XAUUSD', { s: 'ok', t: 1 })).toThrow(HistoryRequestError);
    const page = parsePythHistory('XAUUSD', {
      s: 'ok',
      t: [1795262400, 1795262460, 1795262520, 1795262580, 1795262641, 1795262700],
      o: [2650, 2650, Number.NaN, 2650, 2650, null],
      h: [2651, 2649, 2651, 2651, 2651, 2651],
      l: [2649, 2648, 2649, -1, 2649, 2649],
      c: [2650.5, 2648.5, 2650, 2650],
      v: [],
    });
    // Only the first is whole: high below the open, NaN, a negative low, a close missing, an
    // unaligned minute, a null open.
    expect(page.candles.map((c) => c.openTimeMs)).toEqual([1795262400_000]);
    expect(page.rejected).toBe(5);
  });
});

/** A local stand-in for Binance's klines and Pyth's History API, answering in their formats. */
interface Served {
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  atMs: number;
}
type Handler = (
  request: Served,
) => { status: number; body: unknown; headers?: Record<string, string> } | null;

/** The price a fake source quotes for a minute: a slow deterministic wave, different per minute. */
const priceAt = (minuteMs: number) => 95_000 + ((minuteMs / MINUTE) % 97) * 1.25;

function binanceRows(fromMs: number, toMs: number): unknown[] {
  const rows: unknown[] = [];
  for (let t = Math.ceil(fromMs / MINUTE) * MINUTE; t <= toMs && rows.length < 1000; t += MINUTE) {
    const open = priceAt(t);
    const close = priceAt(t + MINUTE);
    rows.push([
      t,
      open.toFixed(8),
      (Math.max(open, close) + 2).toFixed(8),
      (Math.min(open, close) - 2).toFixed(8),
      close.toFixed(8),
      '1.50000000',
      t + MINUTE - 1,
      '142500.00000000',
      12,
      '0.70000000',
      '66500.00000000',
      '0',
    ]);
  }
  return rows;
}

function pythReply(fromS: number, toS: number): unknown {
  const reply = {
    s: 'ok',
    t: [] as number[],
    o: [] as number[],
    h: [] as number[],
    l: [] as number[],
    c: [] as number[],
    v: [] as number[],
  };
  for (let s = Math.ceil(fromS / 60) * 60; s <= toS; s += 60) {
    const open = priceAt(s * 1000) / 36;
    const close = priceAt(s * 1000 + MINUTE) / 36;
    reply.t.push(s);
    reply.o.push(open);
    reply.h.push(Math.max(open, close) + 0.5);
    reply.l.push(Math.min(open, close) - 0.5);
    reply.c.push(close);
    reply.v.push(0);
  }
  return reply;
}

let server: http.Server;
let baseUrl = '';
const served: Served[] = [];
let handler: Handler = () => null;

/** Default answers: every klines and history range, in the sources' formats. */
function answer(request: Served): {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
} {
  const custom = handler(request);
  if (custom) return custom;
  if (request.path === '/binance/api/v3/klines')
    return {
      status: 200,
      body: binanceRows(
        Number(request.query.get('startTime')),
        Number(request.query.get('endTime')),
      ),
    };
  if (request.path === '/pyth/v1/fixed_rate@200ms/history')
    return {
      status: 200,
      body: pythReply(Number(request.query.get('from')), Number(request.query.get('to'))),
    };
  return { status: 404, body: { error: 'not found' } };
}

let t: TestApp;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const request: Served = {
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      atMs: Date.now(),
    };
    served.push(request);
    const reply = answer(request);
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  handler = () => null;
  served.length = 0;
});

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

const binance = (spacingMs = 20) => binanceHistory({ baseUrl: `${baseUrl}/binance`, spacingMs });
const pyth = (spacingMs = 20) =>
  pythHistory({
    baseUrl: `${baseUrl}/pyth/v1/fixed_rate@200ms`,
    apiKey: 'pyth-key',
    feeds: () => PYTH_FEEDS,
    spacingMs,
  });

async function candlesOf(symbol: InstrumentSymbol) {
  return queryRows<{ open_time: Date; open: string; high: string; close: string; volume: string }>(
    t.database.db,
    sql`select open_time, open_minor::text as open, high_minor::text as high, close_minor::text as close, volume_minor::text as volume
        from market_candles_1m where instrument = ${symbol} order by open_time`,
  );
}

describe('the backfill from the sources', () => {
  it('writes a day of real minutes back from the first recorded one, paced, waiting as asked, and no tick', async () => {
    const start = Math.floor(t.clock.now().getTime() / MINUTE) * MINUTE + 2 * MINUTE;
    await recordAt(t, start + 1_000, { BTCUSDT: '95000', XAUUSD: '2650.5' });
    const ticks = await count(sql`select count(*) from market_ticks`);
    // Binance refuses the first request for too many requests; Pyth has no data for the newest
    // 12 hours (a closed market).
    let refused = false;
    let closed = false;
    handler = (request) => {
      if (request.path.startsWith('/binance') && !refused) {
        refused = true;
        return {
          status: 429,
          body: { code: -1003, msg: 'Too many requests' },
          headers: { 'retry-after': '1' },
        };
      }
      if (request.path.startsWith('/pyth') && !closed) {
        closed = true;
        return { status: 200, body: { s: 'no_data' } };
      }
      return null;
    };
    const results = await backfillSourceHistory(t.database.db, {
      plan: [
        { symbol: 'BTCUSDT', source: binance(200) },
        { symbol: 'XAUUSD', source: pyth() },
      ],
      now: new Date(start + 2_000),
      days: 1,
      signal: new AbortController().signal,
    });
    expect(results).toEqual([
      { symbol: 'BTCUSDT', source: 'binance', candles: 1440, requests: 3, rejected: 0 },
      { symbol: 'XAUUSD', source: 'pyth', candles: 720, requests: 2, rejected: 0 },
    ]);
    expect(await count(sql`select count(*) from market_ticks`)).toBe(ticks);

    // Binance: the refused request again after its Retry-After, then paced; newest page first.
    const asked = served.filter((r) => r.path === '/binance/api/v3/klines');
    expect(asked.map((r) => r.query.get('symbol'))).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT']);
    expect(asked[1]!.atMs - asked[0]!.atMs).toBeGreaterThanOrEqual(990);
    expect(asked[2]!.atMs - asked[1]!.atMs).toBeGreaterThanOrEqual(195);
    expect(asked[1]!.query.get('interval')).toBe('1m');
    expect(Number(asked[1]!.query.get('endTime'))).toBe(start - 1);
    expect(Number(asked[1]!.query.get('startTime'))).toBe(start - 1000 * MINUTE);
    expect(Number(asked[2]!.query.get('startTime'))).toBe(start - DAY);

    const btc = await candlesOf('BTCUSDT');
    expect(btc.length).toBe(1441);
    expect(new Date(btc[0]!.open_time).getTime()).toBe(start - DAY);
    expect(new Date(btc.at(-2)!.open_time).getTime()).toBe(start - MINUTE);
    // Exactly the source's figures: a minute's open, high and volume.
    const sample = btc[100]!;
    const minute = new Date(sample.open_time).getTime();
    const open = priceAt(minute);
    const high = Math.max(open, priceAt(minute + MINUTE)) + 2;
    expect(sample.open).toBe((open * 100).toFixed(0));
    expect(sample.high).toBe((high * 100).toFixed(0));
    expect(sample.volume).toBe('150000000');

    // Pyth: its symbol, one-minute candles in seconds, the key as a bearer token, no volume.
    const pythAsked = served.filter((r) => r.path.startsWith('/pyth'));
    expect(pythAsked.map((r) => r.query.get('symbol'))).toEqual(['Metal.XAU/USD', 'Metal.XAU/USD']);
    expect(pythAsked.every((r) => r.authorization === 'Bearer pyth-key')).toBe(true);
    expect(pythAsked[0]!.query.get('resolution')).toBe('1');
    expect(Number(pythAsked[0]!.query.get('to'))).toBe(start / 1000 - 1);
    expect(Number(pythAsked[1]!.query.get('from'))).toBe((start - DAY) / 1000);
    const xau = await candlesOf('XAUUSD');
    expect(xau.length).toBe(721);
    expect(new Date(xau[0]!.open_time).getTime()).toBe(start - DAY);
    expect(new Date(xau.at(-2)!.open_time).getTime()).toBe(start - 720 * MINUTE - MINUTE);
    expect(xau.slice(0, -1).every((c) => c.volume === '0')).toBe(true);

    // A restart asks nothing more: the history already reaches back the day.
    served.length = 0;
    const again = await backfillSourceHistory(t.database.db, {
      plan: [
        { symbol: 'BTCUSDT', source: binance() },
        { symbol: 'XAUUSD', source: pyth() },
      ],
      now: new Date(start + 2_000),
      days: 1,
      signal: new AbortController().signal,
    });
    expect(again.map((r) => r.requests)).toEqual([0, 0]);
    expect(served).toEqual([]);
  });

  it('leaves an instrument the source refuses for the next start and goes on with the others', async () => {
    const now = new Date(t.clock.now().getTime() + 60 * MINUTE);
    handler = (request) =>
      request.query.get('symbol') === 'SOLUSDT'
        ? { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } }
        : request.query.get('symbol') === 'ETHUSDT'
          ? { status: 503, body: 'unavailable' }
          : null;
    const results = await backfillSourceHistory(t.database.db, {
      plan: [
        { symbol: 'SOLUSDT', source: binance() },
        { symbol: 'ETHUSDT', source: binance() },
        { symbol: 'XRPUSDT', source: binance() },
      ],
      now,
      days: 1,
      signal: new AbortController().signal,
      attempts: 3,
      backoff: { baseMs: 10, maxMs: 20 },
    });
    expect(results[0]).toMatchObject({ symbol: 'SOLUSDT', candles: 0, requests: 1 });
    expect(results[0]?.stopped).toMatch(/answered 400/);
    // A server error is asked again, up to the attempts, then left.
    expect(results[1]).toMatchObject({ symbol: 'ETHUSDT', candles: 0, requests: 3 });
    expect(results[1]?.stopped).toMatch(/answered 503/);
    expect(results[2]).toMatchObject({ symbol: 'XRPUSDT', candles: 1440, requests: 2 });
    expect((await candlesOf('SOLUSDT')).length).toBe(0);
    expect((await candlesOf('XRPUSDT')).length).toBe(1440);
  });

  it('fetches nothing while another process records, and stops at once when the app closes', async () => {
    const now = new Date(t.clock.now().getTime() + 120 * MINUTE);
    let leading = false;
    const closing = new AbortController();
    const source: HistorySource = { ...binance(), spacingMs: 20 };
    const run = backfillSourceHistory(t.database.db, {
      plan: [{ symbol: 'DOGEUSDT', source }],
      now,
      days: 30,
      isLeading: () => leading,
      followerPollMs: 20,
      signal: closing.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(served).toEqual([]);
    leading = true;
    await expect.poll(() => served.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    closing.abort();
    const started = Date.now();
    const [result] = await run;
    expect(Date.now() - started).toBeLessThan(1_000);
    // Whole pages only: what was written is what the requests that finished returned.
    expect((await candlesOf('DOGEUSDT')).length).toBe(result?.candles);
    expect(result!.candles).toBeLessThan(30 * 1440);
    expect(result!.candles % 1000).toBe(0);
  });
});

describe('the app at first start', () => {
  it("reads the crypto pairs' history from Binance in the background and serves it as klines", async () => {
    let app: TestApp | null = null;
    try {
      app = await createTestApp({
        workers: true,
        env: {
          MARKET_SOURCES: 'binance',
          MARKET_FEED_URL: 'ws://127.0.0.1:9/stream',
          BINANCE_REST_URL: `${baseUrl}/binance`,
          MARKET_HISTORY_DAYS: '1',
        },
      });
      const db = app.database.db;
      await expect
        .poll(
          async () =>
            Number(
              (
                await queryRows<{ n: string }>(
                  db,
                  sql`select count(*) as n from market_candles_1m where instrument = 'LTCUSDT'`,
                )
              )[0]?.n,
            ),
          { timeout: 20_000, interval: 200 },
        )
        .toBe(1440);
      const klines = await call<{ items: Candle[] }>(
        app.app,
        'GET',
        '/api/v1/market/klines?symbol=LTCUSDT&interval=1m&limit=5',
      );
      const items = klines.body.data.items;
      expect(items.length).toBe(5);
      const last = items.at(-1)!;
      const lastMs = last.t;
      expect(lastMs).toBe(Math.floor(app.clock.now().getTime() / MINUTE) * MINUTE - MINUTE);
      expect(last.o).toBe(priceAt(lastMs).toFixed(2));
      expect(last.v).toBe('1.5');
      // Only the crypto pairs: Binance prices nothing else, and the rest are the demo walk's.
      expect(served.every((r) => r.path === '/binance/api/v3/klines')).toBe(true);
      expect(new Set(served.map((r) => r.query.get('symbol'))).size).toBe(8);
    } finally {
      await app?.close();
    }
  });

  it('reads MARKET_HISTORY_DAYS, BINANCE_REST_URL and PYTH_HISTORY_URL, refusing bad values', () => {
    expect(loadConfig({ DEMO_MODE: 'true' }).market).toMatchObject({
      historyDays: 30,
      binanceRestUrl: 'https://data-api.binance.vision',
      pythHistoryUrl: 'https://pyth.dourolabs.app/v1/fixed_rate@200ms',
    });
    expect(
      loadConfig({
        DEMO_MODE: 'true',
        MARKET_HISTORY_DAYS: '0',
        BINANCE_REST_URL: 'https://api.binance.com',
      }).market,
    ).toMatchObject({ historyDays: 0, binanceRestUrl: 'https://api.binance.com' });
    for (const [name, value, message] of [
      ['MARKET_HISTORY_DAYS', '91', /MARKET_HISTORY_DAYS: must be at most 90/],
      ['MARKET_HISTORY_DAYS', '-1', /MARKET_HISTORY_DAYS: must be 0 or more/],
      ['BINANCE_REST_URL', 'ftp://x', /BINANCE_REST_URL: must be an http/],
      ['PYTH_HISTORY_URL', 'pyth', /PYTH_HISTORY_URL: must be an http/],
    ] as const) {
      expect(() => loadConfig({ DEMO_MODE: 'true', [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ DEMO_MODE: 'true', [name]: value })).toThrow(message);
    }
  });
});
