import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTRUMENTS, INSTRUMENT_SYMBOLS } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_MARKET, SimulatedFeed } from '../src/modules/market/feed.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { latestPrice } from '../src/modules/market/service.ts';
import { OPS_COMMANDS } from '../src/modules/operator/ops-commands.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, fund, idempotencyKey, operatorToken, registerUser } from './harness.ts';
import { recordPrices } from './prices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tickCount = async () => Number((await queryRows<{ n: string }>(t.database.db, sql`select count(*)::text as n from market_ticks`))[0]?.n);

interface PricesReply {
  items: { asset: string; instrument: string; price: string | null; ts: string | null; source: string | null; sourceLabel: string | null }[];
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
      const start = Number(SIMULATED_MARKET[instrument].start) * 10 ** INSTRUMENTS[instrument].priceScale;
      const ratio = Number(priceMinor) / start;
      expect(ratio, instrument).toBeGreaterThan(0.7);
      expect(ratio, instrument).toBeLessThan(1.3);
    }
  });

  it('continues from the last recorded prices after a restart', () => {
    const feed = new SimulatedFeed({ seed: 1, instruments: ['ETHUSDT'] });
    feed.resume(new Map([['ETHUSDT', 400_000n]]));
    const [eth] = feed.sample(new Date(1000));
    expect(eth && eth.priceMinor > 399_000n && eth.priceMinor < 401_000n).toBe(true);
  });
});

describe('the recorder', () => {
  it('stores one tick per instrument per second as an exact decimal (numeric with the instrument scale), labelled with its source', async () => {
    t.clock.advance(60_000);
    const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feed: new SimulatedFeed({ seed: 3 }) });
    const before = await tickCount();
    expect(await recorder.recordOnce()).toBe(INSTRUMENT_SYMBOLS.length);
    // The same second again records nothing.
    expect(await recorder.recordOnce()).toBe(0);
    expect(await tickCount()).toBe(before + INSTRUMENT_SYMBOLS.length);
    const rows = await queryRows<{ instrument: string; price: string; source: string; ts: Date | string }>(
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
    const scales = await queryRows<{ symbol: string; price_scale: number }>(t.database.db, sql`select symbol, price_scale from market_instruments order by symbol`);
    expect(Object.fromEntries(scales.map((s) => [s.symbol, Number(s.price_scale)]))).toEqual(Object.fromEntries(INSTRUMENT_SYMBOLS.map((s) => [s, INSTRUMENTS[s].priceScale])));
  });

  it('ticks are append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const [tick] = await queryRows<{ id: string; price: string }>(t.database.db, sql`select id::text, price_minor::text as price from market_ticks order by market_ticks.id desc limit 1`);
    expect(tick?.price).toBe('9500000');
    await expect(t.database.db.execute(sql`update market_ticks set price_minor = 1 where id = ${Number(tick?.id)}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`update market_ticks set ts = ts - interval '1 hour'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from market_ticks where id = ${Number(tick?.id)}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`truncate market_ticks cascade`)).rejects.toThrow();
    const [after] = await queryRows<{ price: string }>(t.database.db, sql`select price_minor::text as price from market_ticks where id = ${Number(tick?.id)}`);
    expect(after?.price).toBe('9500000');
  });

  it("an instrument's price scale cannot be changed", async () => {
    await expect(t.database.db.execute(sql`update market_instruments set price_scale = 8 where symbol = 'BTCUSDT'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from market_instruments where symbol = 'BTCUSDT'`)).rejects.toThrow();
  });

  it('runs as a loop on the real clock, one tick per second, and stops cleanly', async () => {
    // A clock ten years back keeps these ticks away from the other tests' manual time.
    const past = { now: () => new Date(Date.now() - 10 * 365 * 86_400_000) };
    const recorder = new MarketRecorder({ db: t.database.db, clock: past, feed: new SimulatedFeed({ seed: 9, instruments: ['LTCUSDT'] }) });
    const count = async () => Number((await queryRows<{ n: string }>(t.database.db, sql`select count(*)::text as n from market_ticks where ts < ${new Date(Date.UTC(2020, 0, 1))}`))[0]?.n);
    recorder.start();
    const deadline = Date.now() + 5_000;
    while ((await count()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await recorder.stop();
    expect(recorder.isRunning).toBe(false);
    const recorded = await count();
    expect(recorded).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await count()).toBe(recorded);
  });
});

describe('prices are recorded, never authored', () => {
  it('no route writes a tick: the only POST under market is favourites, and calling every route records nothing', async () => {
    const marketPosts = t.app.routeTable.filter((r) => r.method === 'POST' && /market|price|tick|candle|kline/i.test(r.url));
    expect(marketPosts.map((r) => r.url)).toEqual(['/api/v1/market/favorites']);
    expect(t.app.routeTable.some((r) => r.url === '/api/v1/market/prices' && r.method === 'GET')).toBe(true);
    const user = await registerUser(t.app);
    const operator = await operatorToken(t, 'admin');
    const before = await tickCount();
    for (const route of t.app.routeTable) {
      for (const token of [user.token, operator.token]) {
        await call(t.app, route.method, route.url, { token, body: route.method === 'POST' ? { instrument: 'BTCUSDT', price: '1', ts: t.clock.now().toISOString() } : undefined, headers: { 'idempotency-key': idempotencyKey() } });
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
    expect((await latestPrice(t.database.db, 'ETHUSDT', new Date(tickAt + 5_000)))?.priceMinor).toBe(330_150n);
    expect(await latestPrice(t.database.db, 'ETHUSDT', new Date(tickAt + 5_001))).toBeNull();
    // A tick after `now` is not "latest at now".
    expect((await latestPrice(t.database.db, 'ETHUSDT', new Date(tickAt - 1)))?.priceMinor).toBe(330_000n);
  });

  it('GET /market/prices lists every asset against USDT with its tick time and source "simulated (demo data)"', async () => {
    t.clock.advance(5_000);
    await recordPrices(t, { BTCUSDT: '95123.45', DOGEUSDT: '0.32001' });
    const reply = await call<PricesReply>(t.app, 'GET', '/api/v1/market/prices');
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.items.map((i) => i.asset)).toEqual(['BTC', 'ETH', 'BNB', 'SOL', 'XRP', 'DOGE', 'TRX', 'LTC']);
    const btc = reply.body.data.items.find((i) => i.asset === 'BTC');
    expect(btc).toEqual({ asset: 'BTC', instrument: 'BTCUSDT', price: '95123.45', ts: t.clock.now().toISOString(), source: 'simulated', sourceLabel: 'simulated (demo data)' });
    expect(reply.body.data.items.find((i) => i.asset === 'DOGE')?.price).toBe('0.32001');
    // ETH's last tick is older than 5 s now: no price rather than a stale one.
    expect(reply.body.data.items.find((i) => i.asset === 'ETH')).toMatchObject({ price: null, ts: null, source: null });
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
    const priced = (await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', { token: user.token })).body.data;
    // 0.5 BTC × 95000.01 = 47500.005; 2 ETH × 3300 = 6600; + 12.5 USDT spot + 3 USDT futures.
    expect(priced.spot.find((s) => s.asset === 'BTC')?.valueUsdt).toBe('47500.005');
    expect(priced.spot.find((s) => s.asset === 'ETH')?.valueUsdt).toBe('6600');
    expect(priced.totalUsdt).toBe('54115.505');
    expect(priced.unpricedAssets).toEqual([]);

    await recordPrices(t, { BTCUSDT: '95000.01' });
    t.clock.advance(4_001);
    // ETH's tick is now more than 5 s old: it drops out of the total, and says so.
    const partly = (await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', { token: user.token })).body.data;
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
      env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, WEB_DIST: '/nonexistent', ROLE: 'all' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let url: string | undefined;
      const deadline = Date.now() + 30_000;
      while (!url && Date.now() < deadline) {
        url = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      expect(url, output).toBeDefined();
      let prices: PricesReply | undefined;
      while (Date.now() < deadline) {
        prices = ((await (await fetch(`${url}/api/v1/market/prices`)).json()) as { data: PricesReply }).data;
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
  }, 60_000);

  it('ROLE worker records without serving HTTP and exits cleanly on SIGTERM', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-worker-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, WEB_DIST: '/nonexistent', ROLE: 'worker' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 30_000;
    while (!output.includes('market recorder started') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    // A few seconds of recording, then the signal.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(child.exitCode, output).toBeNull();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('market recorder started');
    expect(output).not.toContain('Server listening');
    expect(output).not.toContain('was not recorded');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
