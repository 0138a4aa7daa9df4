import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Candle,
  INSTRUMENTS,
  INSTRUMENT_SYMBOLS,
  type InstrumentSymbol,
  KLINE_INTERVALS,
  KLINE_INTERVAL_MS,
  type Ticker,
} from '@tradewind/contract/market';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type FeedPrice,
  type MarketFeed,
  SIMULATED_MARKET,
  SimulatedFeed,
  VOLUME_SCALE,
} from '../src/modules/market/feed.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { changePct, isTradable, latestPrice, setFavorite } from '../src/modules/market/service.ts';
import { tickReference } from '../src/modules/market/tick-references.ts';
import { AppError } from '../src/platform/errors.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tickCount = async () =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from market_ticks`,
      )
    )[0]?.n,
  );

interface PricesReply {
  items: {
    asset: string;
    instrument: string;
    price: string | null;
    ts: string | null;
    source: string | null;
    sourceLabel: string | null;
  }[];
}

describe('the simulated feed', () => {
  it('starts near realistic prices and replays the same walk from the same seed', () => {
    const a = new SimulatedFeed({ seed: 7 });
    const b = new SimulatedFeed({ seed: 7 });
    const c = new SimulatedFeed({ seed: 8 });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const first = a.sample(at(1));
    expect(b.sample(at(1))).toEqual(first);
    expect(c.sample(at(1))).not.toEqual(first);
    expect(first.map((p) => p.instrument)).toEqual(INSTRUMENT_SYMBOLS);
    const btc = first.find((p) => p.instrument === 'BTCUSDT')?.priceMinor ?? 0n;
    // 95000.00 at scale 2, one second later: within 0.1 %.
    expect(btc > 9_490_500n && btc < 9_509_500n).toBe(true);
  });

  it('stays positive, whole and near its level over a day of seconds', () => {
    const feed = new SimulatedFeed({ seed: 20261121 });
    let last = feed.sample(new Date(0));
    for (let s = 1; s <= 86_400; s++) last = feed.sample(new Date(s * 1000));
    for (const { instrument, priceMinor } of last) {
      expect(typeof priceMinor).toBe('bigint');
      const start =
        Number(SIMULATED_MARKET[instrument].start) * 10 ** INSTRUMENTS[instrument].priceScale;
      const ratio = Number(priceMinor) / start;
      expect(ratio, instrument).toBeGreaterThan(0.7);
      expect(ratio, instrument).toBeLessThan(1.3);
    }
  });

  it('reports a plausible traded volume per second for every instrument, so candles and 24 h volume are not zero', () => {
    const feed = new SimulatedFeed({ seed: 11 });
    const prices = feed.sample(new Date(1000));
    for (const { instrument, volumeMinor, source } of prices) {
      expect(source).toBe('simulated');
      const mean = parseAmount(SIMULATED_MARKET[instrument].volumePerS, VOLUME_SCALE) ?? 0n;
      // Between 0.2 and 1.8 times the mean rate.
      expect(
        volumeMinor !== undefined &&
          volumeMinor >= (mean * 2n) / 10n &&
          volumeMinor <= (mean * 18n) / 10n,
        instrument,
      ).toBe(true);
    }
    // Volume has its own random stream: the price walk of a seed is what it was before volume existed.
    expect(prices.find((p) => p.instrument === 'BTCUSDT')?.priceMinor).toBe(
      new SimulatedFeed({ seed: 11 }).sample(new Date(1000)).find((p) => p.instrument === 'BTCUSDT')
        ?.priceMinor,
    );
  });

  it('continues from the last recorded prices after a restart', () => {
    const feed = new SimulatedFeed({ seed: 1, instruments: ['ETHUSDT'] });
    feed.resume(new Map([['ETHUSDT', 400_000n]]));
    const [eth] = feed.sample(new Date(1000));
    expect(eth && eth.priceMinor > 399_000n && eth.priceMinor < 401_000n).toBe(true);
  });
});

describe('what may be traded', () => {
  it('outside demo mode, only instruments a real source prices are tradable; a demo installation trades all', () => {
    const crypto = INSTRUMENT_SYMBOLS.filter((symbol) => INSTRUMENTS[symbol].kind === 'crypto');
    const tradable = (market: {
      sources: ('binance' | 'pyth')[];
      simulated: boolean;
      pythFeedIds?: Record<string, string>;
    }) => INSTRUMENT_SYMBOLS.filter((symbol) => isTradable(symbol, market));
    expect(tradable({ sources: ['binance'], simulated: false })).toEqual(crypto);
    // Pyth prices forex, metals and commodities too: WTI and copper through their front futures
    // month (one with no known front month has no fresh price then, like a closed market), natural
    // gas on its index, which does not roll.
    expect(
      tradable({ sources: ['pyth'], simulated: false }).filter(
        (symbol) => INSTRUMENTS[symbol].kind === 'commodity',
      ),
    ).toEqual(['WTIUSD', 'NGASUSD', 'COPPERUSD']);
    expect(tradable({ sources: ['pyth'], simulated: false })).toEqual(INSTRUMENT_SYMBOLS);
    // An operator points WTI at one feed (PYTH_FEED_IDS): still priced by Pyth.
    expect(
      tradable({ sources: ['pyth'], simulated: false, pythFeedIds: { WTIUSD: 'a'.repeat(64) } }),
    ).toContain('WTIUSD');
    expect(tradable({ sources: ['binance'], simulated: true })).toEqual(INSTRUMENT_SYMBOLS);
    expect(tradable({ sources: [], simulated: true })).toEqual(INSTRUMENT_SYMBOLS);
    expect(tradable({ sources: [], simulated: false })).toEqual([]);
  });
});

describe('the recorder', () => {
  it('stores one tick per instrument per second as an exact decimal (numeric with the instrument scale), labelled with its source', async () => {
    t.clock.advance(60_000);
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feed: new SimulatedFeed({ seed: 3 }),
    });
    const before = await tickCount();
    expect(await recorder.recordOnce()).toBe(INSTRUMENT_SYMBOLS.length);
    // The same second again records nothing.
    expect(await recorder.recordOnce()).toBe(0);
    expect(await tickCount()).toBe(before + INSTRUMENT_SYMBOLS.length);
    const rows = await queryRows<{
      instrument: string;
      price: string;
      source: string;
      ts: Date | string;
    }>(
      t.database.db,
      sql`select instrument, price_minor::text as price, source, ts from market_ticks where ts = ${t.clock.now()} order by instrument`,
    );
    expect(rows).toHaveLength(INSTRUMENT_SYMBOLS.length);
    expect(rows.every((r) => /^\d+$/.test(r.price) && r.source === 'simulated')).toBe(true);
    const column = await queryRows<{ data_type: string; numeric_scale: number }>(
      t.database.db,
      sql`select data_type, numeric_scale from information_schema.columns where table_name = 'market_ticks' and column_name = 'price_minor'`,
    );
    expect(column[0]).toMatchObject({ data_type: 'numeric', numeric_scale: 0 });
    const scales = await queryRows<{ symbol: string; price_scale: number }>(
      t.database.db,
      sql`select symbol, price_scale from market_instruments order by symbol`,
    );
    expect(Object.fromEntries(scales.map((s) => [s.symbol, Number(s.price_scale)]))).toEqual(
      Object.fromEntries(INSTRUMENT_SYMBOLS.map((s) => [s, INSTRUMENTS[s].priceScale])),
    );
  });

  it('ticks are append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const [tick] = await queryRows<{ id: string; price: string }>(
      t.database.db,
      sql`select id::text, price_minor::text as price from market_ticks order by market_ticks.id desc limit 1`,
    );
    expect(tick?.price).toBe('9500000');
    await expect(
      t.database.db.execute(
        sql`update market_ticks set price_minor = 1 where id = ${Number(tick?.id)}`,
      ),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`update market_ticks set ts = ts - interval '1 hour'`),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`delete from market_ticks where id = ${Number(tick?.id)}`),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql`truncate market_ticks cascade`)).rejects.toThrow();
    const [after] = await queryRows<{ price: string }>(
      t.database.db,
      sql`select price_minor::text as price from market_ticks where id = ${Number(tick?.id)}`,
    );
    expect(after?.price).toBe('9500000');
  });

  it("an instrument's price scale cannot be changed", async () => {
    await expect(
      t.database.db.execute(
        sql`update market_instruments set price_scale = 8 where symbol = 'BTCUSDT'`,
      ),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`delete from market_instruments where symbol = 'BTCUSDT'`),
    ).rejects.toThrow();
  });

  it('runs as a loop on the real clock, one tick per second, and stops cleanly', async () => {
    // A clock ten years back keeps these ticks away from the other tests' manual time.
    const past = { now: () => new Date(Date.now() - 10 * 365 * 86_400_000) };
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: past,
      feed: new SimulatedFeed({ seed: 9, instruments: ['LTCUSDT'] }),
    });
    const count = async () =>
      Number(
        (
          await queryRows<{ n: string }>(
            t.database.db,
            sql`select count(*)::text as n from market_ticks where ts < ${new Date(Date.UTC(2020, 0, 1))}`,
          )
        )[0]?.n,
      );
    recorder.start();
    const deadline = Date.now() + 5_000;
    while ((await count()) < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await recorder.stop();
    expect(recorder.isRunning).toBe(false);
    const recorded = await count();
    expect(recorded).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await count()).toBe(recorded);
  });
});

describe('prices are recorded, never authored', () => {
  it("no route writes a tick: the only POSTs under market are favourites and the console's instrument settings, and calling every route records nothing", async () => {
    const marketPosts = t.app.routeTable.filter(
      (r) => r.method === 'POST' && /market|price|tick|candle|kline/i.test(r.url),
    );
    // The console's save takes marks, a display name and an order; its strict schema refuses a price field.
    expect(marketPosts.map((r) => r.url).sort()).toEqual([
      '/api/admin/v1/market/instruments',
      '/api/v1/market/favorites',
    ]);
    expect(
      t.app.routeTable.some((r) => r.url === '/api/v1/market/prices' && r.method === 'GET'),
    ).toBe(true);
    const user = await registerUser(t.app);
    const operator = await operatorToken(t, 'admin');
    const before = await tickCount();
    for (const route of t.app.routeTable) {
      for (const token of [user.token, operator.token]) {
        await call(t.app, route.method, route.url, {
          token,
          body:
            route.method === 'POST'
              ? { instrument: 'BTCUSDT', price: '1', ts: t.clock.now().toISOString() }
              : undefined,
          headers: { 'idempotency-key': idempotencyKey() },
        });
      }
    }
    expect(await tickCount()).toBe(before);
  });

  it('no operator command writes a price', () => {
    expect([...OPS_COMMANDS.keys()].filter((name) => /market|price|tick/i.test(name))).toEqual([]);
  });
});

describe('latest price', () => {
  it('is the latest tick if at most 5 s old, else nothing (never a stale price)', async () => {
    await recordPrices(t, { ETHUSDT: '3300.00' });
    await recordPrices(t, { ETHUSDT: '3301.50' });
    const tickAt = t.clock.now().getTime();
    expect((await latestPrice(t.database.db, 'ETHUSDT', t.clock.now()))?.priceMinor).toBe(330_150n);
    expect(
      (await latestPrice(t.database.db, 'ETHUSDT', new Date(tickAt + 5_000)))?.priceMinor,
    ).toBe(330_150n);
    expect(await latestPrice(t.database.db, 'ETHUSDT', new Date(tickAt + 5_001))).toBeNull();
    // A tick after `now` is not "latest at now".
    expect((await latestPrice(t.database.db, 'ETHUSDT', new Date(tickAt - 1)))?.priceMinor).toBe(
      330_000n,
    );
  });

  it('GET /market/prices lists every asset against USDT with its tick time and source "simulated (demo data)"', async () => {
    t.clock.advance(5_000);
    await recordPrices(t, { BTCUSDT: '95123.45', DOGEUSDT: '0.32001' });
    const reply = await call<PricesReply>(t.app, 'GET', '/api/v1/market/prices');
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.items.map((i) => i.asset)).toEqual([
      'BTC',
      'ETH',
      'BNB',
      'SOL',
      'XRP',
      'DOGE',
      'TRX',
      'LTC',
    ]);
    const btc = reply.body.data.items.find((i) => i.asset === 'BTC');
    expect(btc).toEqual({
      asset: 'BTC',
      instrument: 'BTCUSDT',
      price: '95123.45',
      ts: t.clock.now().toISOString(),
      source: 'simulated',
      sourceLabel: 'simulated (demo data)',
    });
    expect(reply.body.data.items.find((i) => i.asset === 'DOGE')?.price).toBe('0.32001');
    // ETH's last tick is older than 5 s now: no price rather than a stale one.
    expect(reply.body.data.items.find((i) => i.asset === 'ETH')).toMatchObject({
      price: null,
      ts: null,
      source: null,
    });
    const zh = await call<PricesReply>(t.app, 'GET', '/api/v1/market/prices', { lang: 'zh-CN' });
    expect(zh.body.data.items.find((i) => i.asset === 'BTC')?.sourceLabel).toBe('模拟（演示数据）');
    t.clock.advance(5_001);
    const stale = await call<PricesReply>(t.app, 'GET', '/api/v1/market/prices');
    expect(stale.body.data.items.every((i) => i.price === null)).toBe(true);
  });
});

describe('wallet valuation', () => {
  interface Balances {
    spot: { asset: string; available: string; valueUsdt: string | null }[];
    totalUsdt: string;
    unpricedAssets: string[];
  }

  it('values spot assets at the latest recorded price; without a fresh price an asset stays unpriced', async () => {
    const user = await registerUser(t.app);
    await fund(t, Number(user.uid), 12_500_000n);
    await fund(t, Number(user.uid), 50_000_000n, 'spot', 'BTC');
    await fund(t, Number(user.uid), 200_000_000n, 'spot', 'ETH');
    await fund(t, Number(user.uid), 3_000_000n, 'futures');
    await recordPrices(t, { BTCUSDT: '95000.01', ETHUSDT: '3300.00' });
    const priced = (
      await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', { token: user.token })
    ).body.data;
    // 0.5 BTC × 95000.01 = 47500.005; 2 ETH × 3300 = 6600; + 12.5 USDT spot + 3 USDT futures.
    expect(priced.spot.find((s) => s.asset === 'BTC')?.valueUsdt).toBe('47500.005');
    expect(priced.spot.find((s) => s.asset === 'ETH')?.valueUsdt).toBe('6600');
    expect(priced.totalUsdt).toBe('54115.505');
    expect(priced.unpricedAssets).toEqual([]);

    await recordPrices(t, { BTCUSDT: '95000.01' });
    t.clock.advance(4_001);
    // ETH's tick is now more than 5 s old: it drops out of the total, and says so.
    const partly = (
      await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', { token: user.token })
    ).body.data;
    expect(partly.spot.find((s) => s.asset === 'ETH')?.valueUsdt).toBeNull();
    expect(partly.unpricedAssets).toEqual(['ETH']);
    expect(partly.totalUsdt).toBe('47515.505');
  });
});

describe('the server process', () => {
  it('records prices in the background (ROLE all) and stops cleanly on SIGTERM', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-market-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST: '/nonexistent',
        ROLE: 'all',
        DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      let url: string | undefined;
      // A fresh data directory is migrated at start: on a busy CI machine that alone took over 30 s.
      const deadline = Date.now() + 75_000;
      while (!url && Date.now() < deadline) {
        url = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      expect(url, output).toBeDefined();
      let prices: PricesReply | undefined;
      while (Date.now() < deadline) {
        prices = (
          (await (await fetch(`${url}/api/v1/market/prices`)).json()) as { data: PricesReply }
        ).data;
        if (prices.items.every((i) => i.price !== null)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(prices?.items.every((i) => i.price !== null && i.source === 'simulated')).toBe(true);
      const btc = Number(prices?.items.find((i) => i.asset === 'BTC')?.price);
      expect(btc).toBeGreaterThan(80_000);
      expect(btc).toBeLessThan(110_000);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('market recorder started');
    expect(output).not.toContain('was not recorded');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('ROLE worker records without serving HTTP and exits cleanly on SIGTERM', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-worker-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST: '/nonexistent',
        ROLE: 'worker',
        WORKER_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const deadline = Date.now() + 75_000;
    while (
      !output.includes('market recorder started') &&
      Date.now() < deadline &&
      child.exitCode === null
    )
      await new Promise((r) => setTimeout(r, 100));
    // A few seconds of recording, then the signal.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(child.exitCode, output).toBeNull();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('market recorder started');
    expect(output).not.toContain('Server listening');
    expect(output).not.toContain('was not recorded');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
});

/** A feed that answers exactly the prices (and volumes) a test scripts for the next sample. */
class ScriptFeed implements MarketFeed {
  readonly source = 'simulated';
  next: FeedPrice[] = [];
  sample(): FeedPrice[] {
    const out = this.next;
    this.next = [];
    return out;
  }
}

/** Records through the real recorder at `ms`: each instrument's [price, volume in base units]. */
async function recordAt(
  ms: number,
  prices: Partial<Record<InstrumentSymbol, readonly [string, string?]>>,
): Promise<number> {
  const feed = new ScriptFeed();
  feed.next = Object.entries(prices).map(([symbol, [price, volume]]) => ({
    instrument: symbol as InstrumentSymbol,
    priceMinor: parseAmount(price, INSTRUMENTS[symbol as InstrumentSymbol].priceScale) as bigint,
    volumeMinor: parseAmount(volume ?? '0', VOLUME_SCALE) as bigint,
  }));
  return new MarketRecorder({ db: t.database.db, clock: t.clock, feed }).recordOnce(new Date(ms));
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

describe('instruments', () => {
  interface InstrumentsReply {
    items: {
      symbol: string;
      kind: string;
      base: string;
      quote: string;
      name: string;
      priceScale: number;
      tradable: boolean;
      recommended: boolean;
      popular: boolean;
    }[];
  }

  it('lists every instrument of all four kinds with its marks, names in the request language', async () => {
    const en = (await call<InstrumentsReply>(t.app, 'GET', '/api/v1/market/instruments')).body.data
      .items;
    expect(en.map((i) => i.symbol)).toEqual(INSTRUMENT_SYMBOLS);
    for (const item of en) {
      const { kind, base, quote, priceScale, tradable, recommended, popular } =
        INSTRUMENTS[item.symbol as InstrumentSymbol];
      expect(item).toMatchObject({ kind, base, quote, priceScale, tradable, recommended, popular });
      expect(item.name, item.symbol).not.toContain('market.instruments');
    }
    expect(new Set(en.map((i) => i.kind))).toEqual(
      new Set(['crypto', 'commodity', 'forex', 'metal']),
    );
    const name = (items: InstrumentsReply['items'], symbol: string) =>
      items.find((i) => i.symbol === symbol)?.name;
    expect([
      name(en, 'BTCUSDT'),
      name(en, 'WTIUSD'),
      name(en, 'NGASUSD'),
      name(en, 'EURUSD'),
      name(en, 'XAUUSD'),
      name(en, 'XAGUSD'),
    ]).toEqual([
      'Bitcoin',
      'Crude oil (WTI)',
      'Natural gas',
      'EUR/USD',
      'Gold (XAU/USD)',
      'Silver',
    ]);
    const de = (
      await call<InstrumentsReply>(t.app, 'GET', '/api/v1/market/instruments', { lang: 'de' })
    ).body.data.items;
    expect([name(de, 'WTIUSD'), name(de, 'XAGUSD'), name(de, 'COPPERUSD')]).toEqual([
      'Rohöl (WTI)',
      'Silber',
      'Kupfer',
    ]);
    const zh = (
      await call<InstrumentsReply>(t.app, 'GET', '/api/v1/market/instruments', { lang: 'zh-TW' })
    ).body.data.items;
    expect([name(zh, 'BTCUSDT'), name(zh, 'XAUUSD')]).toEqual(['比特幣', '黃金（XAU/USD）']);
  });

  it('every instrument is stored with its kind and price scale', async () => {
    const rows = await queryRows<{ symbol: string; kind: string; price_scale: number }>(
      t.database.db,
      sql`select symbol, kind, price_scale from market_instruments`,
    );
    expect(
      Object.fromEntries(rows.map((r) => [r.symbol, [r.kind, Number(r.price_scale)]])),
    ).toEqual(
      Object.fromEntries(
        INSTRUMENT_SYMBOLS.map((s) => [s, [INSTRUMENTS[s].kind, INSTRUMENTS[s].priceScale]]),
      ),
    );
  });
});

describe('1-minute candles', () => {
  const M = Date.UTC(2026, 2, 5, 10, 0, 0);
  const candleRows = () =>
    queryRows<{
      open_time: Date | string;
      o: string;
      h: string;
      l: string;
      c: string;
      v: string;
      n: number;
    }>(
      t.database.db,
      sql`select open_time, open_minor::text as o, high_minor::text as h, low_minor::text as l, close_minor::text as c, volume_minor::text as v, tick_count as n
          from market_candles_1m where instrument = 'BTCUSDT' and open_time >= ${new Date(M).toISOString()}::timestamptz and open_time < ${new Date(M + 10 * MINUTE).toISOString()}::timestamptz order by open_time`,
    );

  it('are built with the ticks: first tick opens, highest and lowest, last closes, volume summed; a late tick lands in its place', async () => {
    await recordAt(M + 5_000, { BTCUSDT: ['100.00', '1'] });
    await recordAt(M + 20_000, { BTCUSDT: ['105.00', '1'] });
    await recordAt(M + 40_000, { BTCUSDT: ['95.00', '1'] });
    await recordAt(M + 59_000, { BTCUSDT: ['101.00', '1'] });
    await recordAt(M + 60_000, { BTCUSDT: ['102.00', '2'] });
    // A tick that arrives after later ones (another worker's second) becomes the open, not the close.
    expect(await recordAt(M + 2_000, { BTCUSDT: ['99.00', '0.5'] })).toBe(1);
    // A second recorded twice counts once.
    expect(await recordAt(M + 20_000, { BTCUSDT: ['200.00', '7'] })).toBe(0);
    const rows = await candleRows();
    expect(
      rows.map((r) => ({
        t: new Date(r.open_time).getTime(),
        o: r.o,
        h: r.h,
        l: r.l,
        c: r.c,
        v: r.v,
        n: Number(r.n),
      })),
    ).toEqual([
      { t: M, o: '9900', h: '10500', l: '9500', c: '10100', v: '450000000', n: 5 },
      { t: M + MINUTE, o: '10200', h: '10200', l: '10200', c: '10200', v: '200000000', n: 1 },
    ]);
    t.clock.set(M + 2 * MINUTE);
    const reply = await call<{ items: Candle[] }>(
      t.app,
      'GET',
      '/api/v1/market/klines?symbol=BTCUSDT&interval=1m',
    );
    expect(reply.body.data.items).toEqual([
      { t: M, o: '99', h: '105', l: '95', c: '101', v: '4.5' },
      { t: M + MINUTE, o: '102', h: '102', l: '102', c: '102', v: '2' },
    ]);
  });

  it('only the recorder writes ticks and candles: the database refuses any other insert, update, delete or truncate', async () => {
    const db = t.database.db;
    await expect(
      db.execute(
        sql`insert into market_ticks (instrument, ts, price_minor, source) values ('BTCUSDT', ${new Date(M + 5 * MINUTE).toISOString()}::timestamptz, 1, 'simulated')`,
      ),
    ).rejects.toThrow();
    await expect(
      db.execute(
        sql`insert into market_candles_1m values ('BTCUSDT', ${new Date(M + 5 * MINUTE).toISOString()}::timestamptz, 1, 1, 1, 1, 0, 1, ${new Date(M + 5 * MINUTE).toISOString()}::timestamptz, ${new Date(M + 5 * MINUTE).toISOString()}::timestamptz)`,
      ),
    ).rejects.toThrow();
    await expect(
      db.execute(
        sql`update market_candles_1m set close_minor = high_minor where instrument = 'BTCUSDT'`,
      ),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from market_candles_1m where instrument = 'BTCUSDT'`),
    ).rejects.toThrow();
    await expect(db.execute(sql`truncate market_candles_1m`)).rejects.toThrow();
    // Even in a transaction that claims to be the recorder, a candle only grows: it cannot be narrowed, moved or deleted.
    const asRecorder = (statement: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('tradewind.recorder', 'on', true)`);
        await tx.execute(statement);
      });
    await expect(
      asRecorder(
        sql`update market_candles_1m set high_minor = high_minor - 1, tick_count = tick_count + 1 where instrument = 'BTCUSDT'`,
      ),
    ).rejects.toThrow();
    await expect(
      asRecorder(
        sql`update market_candles_1m set open_time = open_time + interval '1 minute', tick_count = tick_count + 1 where instrument = 'BTCUSDT'`,
      ),
    ).rejects.toThrow();
    await expect(
      asRecorder(sql`delete from market_candles_1m where instrument = 'BTCUSDT'`),
    ).rejects.toThrow();
    expect((await candleRows()).map((r) => [r.o, r.h, r.l, r.c, Number(r.n)])).toEqual([
      ['9900', '10500', '9500', '10100', 5],
      ['10200', '10200', '10200', '10200', 1],
    ]);
  });
});

describe('klines of every interval', () => {
  // Sunday 1 March 2026 20:00 UTC to Monday 2 March 04:00: eight hours of one tick a minute, across a week boundary.
  const S = Date.UTC(2026, 2, 1, 20, 0, 0);
  const COUNT = 480;
  const series = Array.from({ length: COUNT }, (_, i) => ({
    openMs: S + i * MINUTE,
    priceMinor: 100_000n + BigInt((i * 7_919) % 1_001) - 500n,
    volumeMinor: BigInt((i % 7) + 1) * 10_000_000n,
  }));
  const MONDAY_ORIGIN = Date.UTC(2000, 0, 3);

  /** The candles an interval must show, computed here from the series by the definition. */
  function expected(interval: (typeof KLINE_INTERVALS)[number]): Candle[] {
    const size = KLINE_INTERVAL_MS[interval];
    const buckets = new Map<number, typeof series>();
    for (const point of series) {
      const open = MONDAY_ORIGIN + Math.floor((point.openMs - MONDAY_ORIGIN) / size) * size;
      buckets.set(open, [...(buckets.get(open) ?? []), point]);
    }
    return [...buckets].map(([open, points]) => ({
      t: open,
      o: formatAmount(points[0]!.priceMinor, 2),
      h: formatAmount(
        points.reduce((m, p) => (p.priceMinor > m ? p.priceMinor : m), 0n),
        2,
      ),
      l: formatAmount(
        points.reduce((m, p) => (p.priceMinor < m ? p.priceMinor : m), points[0]!.priceMinor),
        2,
      ),
      c: formatAmount(points.at(-1)!.priceMinor, 2),
      v: formatAmount(
        points.reduce((sum, p) => sum + p.volumeMinor, 0n),
        VOLUME_SCALE,
      ),
    }));
  }

  beforeAll(async () => {
    for (const point of series) {
      await recordAt(point.openMs + 10_000, {
        SOLUSDT: [formatAmount(point.priceMinor, 2), formatAmount(point.volumeMinor, VOLUME_SCALE)],
      });
    }
    t.clock.set(S + COUNT * MINUTE);
  }, 120_000);

  const klinesOf = async (query: string) =>
    (
      await call<{ symbol: string; interval: string; items: Candle[] }>(
        t.app,
        'GET',
        `/api/v1/market/klines?${query}`,
      )
    ).body;

  it.each(KLINE_INTERVALS)(
    '%s: aggregated from the 1-minute candles, oldest first',
    async (interval) => {
      const body = await klinesOf(`symbol=SOLUSDT&interval=${interval}&limit=1000`);
      expect(body.code).toBe(0);
      expect(body.data.symbol).toBe('SOLUSDT');
      expect(body.data.interval).toBe(interval);
      expect(body.data.items).toEqual(expected(interval));
    },
  );

  it('weeks open on Monday 00:00 UTC, days at midnight, 4 h candles on the hours of four', async () => {
    expect(
      (await klinesOf('symbol=SOLUSDT&interval=1w&limit=1000')).data.items.map((c) => c.t),
    ).toEqual([Date.UTC(2026, 1, 23), Date.UTC(2026, 2, 2)]);
    expect(
      (await klinesOf('symbol=SOLUSDT&interval=1d&limit=1000')).data.items.map((c) => c.t),
    ).toEqual([Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 2)]);
    expect(
      (await klinesOf('symbol=SOLUSDT&interval=4h&limit=1000')).data.items.map((c) => c.t),
    ).toEqual([Date.UTC(2026, 2, 1, 20), Date.UTC(2026, 2, 2, 0)]);
    expect(expected('1h')).toHaveLength(8);
  });

  it('returns the latest 300 by default, pages back with `before`, and honours `limit`', async () => {
    const recent = (await klinesOf('symbol=SOLUSDT&interval=1m')).data.items;
    expect(recent).toHaveLength(300);
    expect(recent[0]?.t).toBe(S + 180 * MINUTE);
    expect(recent.at(-1)?.t).toBe(S + 479 * MINUTE);
    const page = (
      await klinesOf(`symbol=SOLUSDT&interval=1h&before=${Date.UTC(2026, 2, 2, 2)}&limit=3`)
    ).data.items;
    expect(page).toEqual(
      expected('1h').filter(
        (c) => c.t >= Date.UTC(2026, 2, 1, 23) && c.t < Date.UTC(2026, 2, 2, 2),
      ),
    );
    expect(page.map((c) => c.t)).toEqual([
      Date.UTC(2026, 2, 1, 23),
      Date.UTC(2026, 2, 2, 0),
      Date.UTC(2026, 2, 2, 1),
    ]);
    // A candle that opened before `before` is whole, even if some of its minutes are later.
    const fives = (await klinesOf(`symbol=SOLUSDT&interval=5m&before=${S + 3 * MINUTE}&limit=5`))
      .data.items;
    expect(fives).toEqual([expected('5m')[0]]);
    // The day of 1 March opened before 19:00 that day: it is included, whole.
    expect((await klinesOf(`symbol=SOLUSDT&interval=1d&before=${S - HOUR}`)).data.items).toEqual([
      expected('1d')[0],
    ]);
    expect(
      (await klinesOf(`symbol=SOLUSDT&interval=1d&before=${Date.UTC(2026, 2, 1)}`)).data.items,
    ).toEqual([]);
    // A gap (here: a day and more without candles) does not cut a page short.
    t.clock.set(S + 2 * 86_400_000);
    const acrossGap = (await klinesOf('symbol=SOLUSDT&interval=1m&limit=3')).data.items;
    t.clock.set(S + COUNT * MINUTE);
    expect(acrossGap.map((c) => c.t)).toEqual([
      S + 477 * MINUTE,
      S + 478 * MINUTE,
      S + 479 * MINUTE,
    ]);
  });

  it('refuses an unknown symbol or interval and out-of-range limits', async () => {
    for (const query of [
      'symbol=NOPE&interval=1m',
      'symbol=SOLUSDT&interval=2m',
      'symbol=SOLUSDT&interval=1m&limit=0',
      'symbol=SOLUSDT&interval=1m&limit=1001',
      'symbol=SOLUSDT&interval=1m&before=-5',
      'interval=1m',
    ]) {
      const reply = await call(t.app, 'GET', `/api/v1/market/klines?${query}`);
      expect(reply.status, query).toBe(422);
    }
    // A `before` beyond any date still answers (as "now"), from the first second of the epoch too.
    expect(
      (await klinesOf(`symbol=SOLUSDT&interval=1w&before=${Number.MAX_SAFE_INTEGER}&limit=1000`))
        .data.items,
    ).toEqual(expected('1w'));
    expect((await klinesOf('symbol=SOLUSDT&interval=1w&before=1&limit=1000')).data.items).toEqual(
      [],
    );
    const unknown = await call(t.app, 'GET', '/api/v1/market/klines?symbol=NOPE&interval=1m', {
      lang: 'de',
    });
    expect(unknown.body.errors).toEqual({ symbol: ['Unbekanntes Instrument.'] });
  });
});

describe('tickers', () => {
  const N = Date.UTC(2026, 2, 10, 12, 0, 0);

  beforeAll(async () => {
    await recordAt(N - 25 * HOUR, { XAUUSD: ['2000.00', '1'] });
    await recordAt(N - 24 * HOUR + 30_000, { XAUUSD: ['2500.00', '2'] });
    await recordAt(N - 10 * HOUR, { XAUUSD: ['2700.00', '3'] });
    await recordAt(N - 5 * HOUR, { XAUUSD: ['2400.00', '4'] });
    await recordAt(N - 3 * HOUR, { EURUSD: ['1.08000'] });
    await recordAt(N - 2_000, { XAUUSD: ['2525.25', '0.5'] });
    await recordAt(N - 1_000, { EURUSD: ['1.07865'] });
    t.clock.set(N);
  });

  it('carry the fresh price and the rolling 24 h open, high, low, volume and change over 1-minute candles', async () => {
    const reply = await call<{ items: Ticker[] }>(t.app, 'GET', '/api/v1/market/tickers');
    expect(reply.body.data.items.map((i) => i.symbol)).toEqual(INSTRUMENT_SYMBOLS);
    const gold = reply.body.data.items.find((i) => i.symbol === 'XAUUSD');
    // The 2000.00 tick is 25 h old: outside the window. (2525.25 − 2500) / 2500 = 1.01 %.
    expect(gold).toEqual({
      symbol: 'XAUUSD',
      price: '2525.25',
      ts: new Date(N - 2_000).toISOString(),
      source: 'simulated',
      sourceLabel: 'simulated (demo data)',
      open24h: '2500',
      high24h: '2700',
      low24h: '2400',
      volume24h: '9.5',
      changePct: '1.01',
    });
    // (1.07865 − 1.08) / 1.08 = −0.125 % → −0.13 (half away from zero); no volume reported → "0".
    expect(reply.body.data.items.find((i) => i.symbol === 'EURUSD')).toMatchObject({
      price: '1.07865',
      open24h: '1.08',
      changePct: '-0.13',
      volume24h: '0',
    });
    // No fresh tick: no price, and no statistics either.
    expect(reply.body.data.items.find((i) => i.symbol === 'BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      price: null,
      ts: null,
      source: null,
      sourceLabel: null,
      open24h: null,
      high24h: null,
      low24h: null,
      volume24h: null,
      changePct: null,
    });
  });

  it('GET /market/sparklines: each instrument’s last 24 hours, the close of each hour with a candle, oldest first', async () => {
    const reply = await call<{ items: { symbol: string; closes: string[] }[] }>(
      t.app,
      'GET',
      '/api/v1/market/sparklines',
    );
    expect(reply.status).toBe(200);
    const bySymbol = new Map(reply.body.data.items.map((item) => [item.symbol, item.closes]));
    expect([...bySymbol.keys()]).toEqual(INSTRUMENT_SYMBOLS);
    // The hour of N − 24 h + 30 s is the 25th back: outside. Then 10 h, 5 h and the last hour.
    expect(bySymbol.get('XAUUSD')).toEqual(['2700', '2400', '2525.25']);
    expect(bySymbol.get('EURUSD')).toEqual(['1.08', '1.07865']);
    expect(bySymbol.get('GBPUSD')).toEqual([]);
  });

  it('GET /market/ticker answers one instrument, in the request language, and refuses unknown symbols', async () => {
    const one = await call<Ticker>(t.app, 'GET', '/api/v1/market/ticker?symbol=XAUUSD', {
      lang: 'zh-TW',
    });
    expect(one.body.data).toMatchObject({
      symbol: 'XAUUSD',
      price: '2525.25',
      changePct: '1.01',
      sourceLabel: '模擬（示範資料）',
    });
    const unknown = await call(t.app, 'GET', '/api/v1/market/ticker?symbol=NOPE');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ symbol: ['Unknown instrument.'] });
    expect((await call(t.app, 'GET', '/api/v1/market/ticker')).status).toBe(422);
    t.clock.set(N - 2_000 + 5_001);
    expect(
      (await call<Ticker>(t.app, 'GET', '/api/v1/market/ticker?symbol=XAUUSD')).body.data,
    ).toMatchObject({ price: null, open24h: null, changePct: null });
  });

  it('change is exact integer arithmetic with two decimals, rounded half away from zero', () => {
    expect(changePct(252_525n, 250_000n)).toBe('1.01');
    expect(changePct(99_875n, 100_000n)).toBe('-0.13');
    expect(changePct(100_005n, 100_000n)).toBe('0.01');
    expect(changePct(100_004n, 100_000n)).toBe('0.00');
    expect(changePct(99_996n, 100_000n)).toBe('0.00');
    expect(changePct(300n, 100n)).toBe('200.00');
    expect(changePct(1n, 3n)).toBe('-66.67');
    expect(changePct(123_456_789_012_345_678_901n, 123_456_789_012_345_678_900n)).toBe('0.00');
  });
});

describe('favourites', () => {
  it('mark and unmark are idempotent, each user reads only their own, and bad input is refused', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    expect((await call(t.app, 'GET', '/api/v1/market/favorites')).status).toBe(401);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/market/favorites', {
          body: { symbol: 'BTCUSDT', favorite: true },
        })
      ).status,
    ).toBe(401);
    const post = (token: string, body: unknown) =>
      call<{ symbols: string[] }>(t.app, 'POST', '/api/v1/market/favorites', { token, body });
    expect(
      (await post(alice.token, { symbol: 'BTCUSDT', favorite: true })).body.data.symbols,
    ).toEqual(['BTCUSDT']);
    t.clock.advance(1_000);
    expect(
      (await post(alice.token, { symbol: 'BTCUSDT', favorite: true })).body.data.symbols,
    ).toEqual(['BTCUSDT']);
    expect(
      (await post(alice.token, { symbol: 'XAUUSD', favorite: true })).body.data.symbols,
    ).toEqual(['BTCUSDT', 'XAUUSD']);
    expect((await post(bob.token, { symbol: 'EURUSD', favorite: true })).body.data.symbols).toEqual(
      ['EURUSD'],
    );
    expect(
      (
        await call<{ symbols: string[] }>(t.app, 'GET', '/api/v1/market/favorites', {
          token: alice.token,
        })
      ).body.data.symbols,
    ).toEqual(['BTCUSDT', 'XAUUSD']);
    expect(
      (await post(alice.token, { symbol: 'BTCUSDT', favorite: false })).body.data.symbols,
    ).toEqual(['XAUUSD']);
    expect(
      (await post(alice.token, { symbol: 'BTCUSDT', favorite: false })).body.data.symbols,
    ).toEqual(['XAUUSD']);
    // Bob's unmarking never touches Alice's favourites.
    expect(
      (await post(bob.token, { symbol: 'XAUUSD', favorite: false })).body.data.symbols,
    ).toEqual(['EURUSD']);
    const rows = await queryRows<{ user_id: string; instrument: string }>(
      t.database.db,
      sql`select user_id::text, instrument from market_favorites where user_id in (${Number(alice.uid)}, ${Number(bob.uid)}) order by user_id, instrument`,
    );
    expect(rows).toEqual([
      { user_id: alice.uid, instrument: 'XAUUSD' },
      { user_id: bob.uid, instrument: 'EURUSD' },
    ]);

    const unknown = await post(alice.token, { symbol: 'NOPE', favorite: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ symbol: ['Unknown instrument.'] });
    for (const body of [
      { symbol: 'BTCUSDT' },
      { symbol: 'BTCUSDT', favorite: 'yes' },
      { symbol: 'BTCUSDT', favorite: true, userId: bob.uid },
      {},
    ]) {
      expect((await post(alice.token, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(
      (
        await call<{ symbols: string[] }>(t.app, 'GET', '/api/v1/market/favorites', {
          token: bob.token,
        })
      ).body.data.symbols,
    ).toEqual(['EURUSD']);
  });

  it('a user keeps at most the limit of favourites', async () => {
    const carol = await registerUser(t.app);
    const uid = Number(carol.uid);
    await setFavorite(t.database.db, t.clock.now(), uid, 'BTCUSDT', true, 2);
    await setFavorite(t.database.db, t.clock.now(), uid, 'ETHUSDT', true, 2);
    // Marking one already marked is still fine at the limit.
    expect(
      (await setFavorite(t.database.db, t.clock.now(), uid, 'ETHUSDT', true, 2)).symbols,
    ).toEqual(['BTCUSDT', 'ETHUSDT']);
    await expect(
      setFavorite(t.database.db, t.clock.now(), uid, 'SOLUSDT', true, 2),
    ).rejects.toMatchObject({ errorName: 'FAVORITES_LIMIT' });
    await expect(
      setFavorite(t.database.db, t.clock.now(), uid, 'SOLUSDT', true, 2),
    ).rejects.toBeInstanceOf(AppError);
    expect(
      (
        await call<{ symbols: string[] }>(t.app, 'GET', '/api/v1/market/favorites', {
          token: carol.token,
        })
      ).body.data.symbols,
    ).toEqual(['BTCUSDT', 'ETHUSDT']);
  });
});

describe('tick retention', () => {
  const count = async (query: ReturnType<typeof sql>) =>
    Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

  it('a tick can never be updated, and deleted only by the prune path, and only when older than a day', async () => {
    // A tick recorded at the real current time: young by the database's clock.
    t.clock.set(Math.floor(Date.now() / 1000) * 1000);
    await recordAt(t.clock.now().getTime(), { LTCUSDT: ['101.00'] });
    const [young] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from market_ticks where instrument = 'LTCUSDT' order by ts desc limit 1`,
    );
    const [old] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from market_ticks where instrument = 'SOLUSDT' order by ts limit 1`,
    );
    const asPrune = (statement: ReturnType<typeof sql>) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('tradewind.tick_prune', 'on', true)`);
        await tx.execute(statement);
      });
    await expect(
      t.database.db.execute(sql`delete from market_ticks where id = ${Number(old?.id)}`),
    ).rejects.toThrow();
    await expect(
      asPrune(sql`delete from market_ticks where id = ${Number(young?.id)}`),
    ).rejects.toThrow();
    await expect(
      asPrune(
        sql`update market_ticks set price_minor = price_minor + 1 where id = ${Number(old?.id)}`,
      ),
    ).rejects.toThrow();
    await expect(asPrune(sql`truncate market_ticks`)).rejects.toThrow();
    expect(
      await count(
        sql`select count(*)::text as n from market_ticks where id in (${Number(old?.id)}, ${Number(young?.id)})`,
      ),
    ).toBe(2);
  });

  it('prunes raw ticks older than the retention, keeps every tick another table refers to, and keeps all candles', async () => {
    const db = t.database.db;
    t.clock.set(Date.UTC(2026, 3, 1));
    const cutoff = new Date(Date.UTC(2026, 3, 1) - 10 * 86_400_000).toISOString();
    const oldIds = (
      await queryRows<{ id: string }>(
        db,
        sql`select id::text from market_ticks where instrument = 'SOLUSDT' order by ts limit 3`,
      )
    ).map((r) => Number(r.id));
    await db.execute(sql`create table test_tick_notes (tick_id bigint not null)`);
    await db.execute(
      sql`create table test_tick_orders (tick_id bigint not null references market_ticks(id))`,
    );
    await db.execute(sql`create table test_tick_unregistered (tick_id bigint not null)`);
    // Declared explicitly (no foreign key); the foreign key of test_tick_orders is found in the catalogue.
    const notes = tickReference('test_tick_notes', 'tick_id');
    expect(() => tickReference('orders; drop table users', 'id')).toThrow();
    await db.execute(sql`insert into test_tick_notes values (${oldIds[0]})`);
    await db.execute(sql`insert into test_tick_orders values (${oldIds[1]})`);
    await db.execute(sql`insert into test_tick_unregistered values (${oldIds[2]})`);

    const oldBefore = await count(
      sql`select count(*)::text as n from market_ticks where ts < ${cutoff}::timestamptz`,
    );
    const newBefore = await count(
      sql`select count(*)::text as n from market_ticks where ts >= ${cutoff}::timestamptz`,
    );
    const candlesBefore = await count(sql`select count(*)::text as n from market_candles_1m`);
    const weeks = (
      await call<{ items: Candle[] }>(
        t.app,
        'GET',
        `/api/v1/market/klines?symbol=SOLUSDT&interval=1w&before=${Date.UTC(2026, 2, 3)}`,
      )
    ).body.data.items;
    expect(oldBefore).toBeGreaterThan(480);

    const recorder = new MarketRecorder({
      db,
      clock: t.clock,
      feed: new ScriptFeed(),
      tickRetentionDays: 10,
      tickReferences: [notes],
    });
    expect(await recorder.pruneTicks()).toBe(oldBefore - 2);
    const kept = await queryRows<{ id: string }>(
      db,
      sql`select id::text from market_ticks where ts < ${cutoff}::timestamptz order by id`,
    );
    expect(kept.map((r) => Number(r.id))).toEqual(
      [oldIds[0], oldIds[1]].sort((a, b) => (a as number) - (b as number)),
    );
    expect(
      await count(
        sql`select count(*)::text as n from market_ticks where ts >= ${cutoff}::timestamptz`,
      ),
    ).toBe(newBefore);
    expect(await count(sql`select count(*)::text as n from market_candles_1m`)).toBe(candlesBefore);
    expect(
      (
        await call<{ items: Candle[] }>(
          t.app,
          'GET',
          `/api/v1/market/klines?symbol=SOLUSDT&interval=1w&before=${Date.UTC(2026, 2, 3)}`,
        )
      ).body.data.items,
    ).toEqual(weeks);
    expect(await recorder.pruneTicks()).toBe(0);
  });

  it('the loop prunes about once a minute, not every second; without a retention it never prunes', async () => {
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feed: new ScriptFeed(),
      tickRetentionDays: 10,
    });
    const prune = vi.spyOn(recorder, 'pruneTicks');
    await recorder.step();
    t.clock.advance(59_000);
    await recorder.step();
    expect(prune).toHaveBeenCalledTimes(1);
    t.clock.advance(1_000);
    await recorder.step();
    expect(prune).toHaveBeenCalledTimes(2);
    const keepForever = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feed: new ScriptFeed(),
    });
    expect(await keepForever.pruneTicks()).toBe(0);
  });
});
