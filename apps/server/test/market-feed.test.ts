import { once } from 'node:events';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTRUMENTS, INSTRUMENT_SYMBOLS } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import {
  type AggTrade,
  BINANCE_INSTRUMENTS,
  BinanceFeed,
  type Schedule,
  binanceStreamUrl,
  parseAggTrade,
  parseDecimal,
} from '../src/modules/market/binance.ts';
import { SimulatedFeed } from '../src/modules/market/feed.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import { T0, type TestApp, createTestApp } from './harness.ts';

const fixture = fs
  .readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/binance/aggtrade.jsonl'),
    'utf8',
  )
  .split('\n')
  .filter((line) => line.trim() !== '');

/** What the fixture's 14 valid aggregate trades leave: the last price and the summed quantity (10^-8 units) per symbol. */
const EXPECTED = {
  BTCUSDT: { priceMinor: 9_501_421n, volumeMinor: 16_545_000n },
  ETHUSDT: { priceMinor: 330_160n, volumeMinor: 125_430_000n },
  DOGEUSDT: { priceMinor: 32_019n, volumeMinor: 250_000_000_000n },
  XRPUSDT: { priceMinor: 23_105n, volumeMinor: 50_000_000_000n },
  SOLUSDT: { priceMinor: 18_988n, volumeMinor: 1_300_000_000n },
};

describe('Binance messages', () => {
  it('parses decimal strings exactly at the instrument scale, never through a float', () => {
    expect(parseDecimal('95000.01000000', 2)).toBe(9_500_001n);
    expect(parseDecimal('0.32017000', 5)).toBe(32_017n);
    expect(parseDecimal('12345678901234567890.12', 2)).toBe(1_234_567_890_123_456_789_012n);
    // Digits beyond the scale round half up (scales match the exchange's tick sizes, so they are zeros in practice).
    expect(parseDecimal('1.005', 2)).toBe(101n);
    expect(parseDecimal('1.00499999', 2)).toBe(100n);
    expect(parseDecimal('7', 3)).toBe(7_000n);
    for (const bad of ['', '-1', '1e5', '3.3e3', ' 1', '1.', '.5', '0x10', 'NaN', '1,5'])
      expect(parseDecimal(bad, 2), bad).toBeNull();
  });

  it('replays the recorded fixture: aggregate trades of known symbols parse, everything else is ignored', () => {
    const trades = fixture.map(parseAggTrade).filter((trade): trade is AggTrade => trade !== null);
    // 15 trades recorded, one of them PEPEUSDT (not ours); a subscription reply, a depth update and a malformed price are skipped.
    expect(fixture).toHaveLength(18);
    expect(trades).toHaveLength(14);
    expect(trades[0]).toEqual({
      symbol: 'BTCUSDT',
      priceMinor: 9_501_234n,
      quantityMinor: 1_200_000n,
      tradeTimeMs: 1_795_262_400_005,
    });
    const last = new Map(trades.map((trade) => [trade.symbol, trade.priceMinor]));
    const volume = new Map<string, bigint>();
    for (const trade of trades)
      volume.set(trade.symbol, (volume.get(trade.symbol) ?? 0n) + trade.quantityMinor);
    for (const [symbol, expected] of Object.entries(EXPECTED)) {
      expect(last.get(symbol as AggTrade['symbol']), symbol).toBe(expected.priceMinor);
      expect(volume.get(symbol), symbol).toBe(expected.volumeMinor);
    }
    // A raw (not combined-stream) message parses the same way.
    const raw = JSON.stringify(JSON.parse(fixture[1] as string).data);
    expect(parseAggTrade(raw)?.priceMinor).toBe(9_501_234n);
    expect(parseAggTrade('{"e":"aggTrade","s":"WTIUSD","p":"70.1","q":"1","T":1}')).toBeNull();
  });

  it('subscribes to the aggregate-trade stream of every crypto instrument, nothing else', () => {
    expect(BINANCE_INSTRUMENTS).toEqual(
      INSTRUMENT_SYMBOLS.filter((symbol) => INSTRUMENTS[symbol].kind === 'crypto'),
    );
    expect(binanceStreamUrl('wss://stream.binance.com:9443/stream')).toBe(
      'wss://stream.binance.com:9443/stream?streams=btcusdt@aggTrade/ethusdt@aggTrade/bnbusdt@aggTrade/solusdt@aggTrade/xrpusdt@aggTrade/dogeusdt@aggTrade/trxusdt@aggTrade/ltcusdt@aggTrade',
    );
  });
});

describe('feed configuration', () => {
  it('defaults to the demo walk in demo mode and to every real source otherwise; simulated prices never run outside demo mode', () => {
    expect(loadConfig({}).market).toEqual({
      sources: [],
      simulated: true,
      feedUrl: 'wss://stream.binance.com:9443/stream',
      pythUrl: 'https://hermes.pyth.network',
      pythFeedIds: {},
      tickRetentionDays: 3,
      demoHistoryDays: 30,
      historyDays: 30,
      binanceRestUrl: 'https://data-api.binance.vision',
      pythHistoryUrl: 'https://pyth.dourolabs.app/v1/fixed_rate@200ms',
    });
    expect(loadConfig({ DEMO_MODE: 'false' }).market).toMatchObject({
      sources: ['binance', 'pyth'],
      simulated: false,
      demoHistoryDays: 0,
      historyDays: 30,
    });
    expect(
      loadConfig({ MARKET_FEED: 'binance', MARKET_FEED_URL: 'ws://127.0.0.1:9/stream' }).market,
    ).toMatchObject({ sources: ['binance'], simulated: true, feedUrl: 'ws://127.0.0.1:9/stream' });
    expect(loadConfig({ MARKET_SOURCES: 'pyth, binance', PYTH_API_KEY: 'k' }).market).toMatchObject(
      { sources: ['binance', 'pyth'], pythApiKey: 'k' },
    );
    expect(() => loadConfig({ DEMO_MODE: 'false', MARKET_FEED: 'simulated' })).toThrow(
      /simulated feed exists only in demo mode/,
    );
    expect(() => loadConfig({ MARKET_SOURCES: 'binance,kraken' })).toThrow(/MARKET_SOURCES/);
    expect(loadConfig({ PYTH_FEED_IDS: `WTIUSD=0x${'AB'.repeat(32)}` }).market.pythFeedIds).toEqual(
      { WTIUSD: 'ab'.repeat(32) },
    );
    expect(() => loadConfig({ PYTH_FEED_IDS: `OILUSD=${'ab'.repeat(32)}` })).toThrow(
      /OILUSD is not an instrument/,
    );
    expect(() => loadConfig({ PYTH_FEED_IDS: 'WTIUSD=12' })).toThrow(/PYTH_FEED_IDS/);
    // The key is a secret: an error about it never repeats it.
    expect(() => loadConfig({ PYTH_API_KEY: ' ' })).toThrow(ConfigError);
    expect(() => loadConfig({ MARKET_FEED: 'kraken' })).toThrow(ConfigError);
    expect(() => loadConfig({ MARKET_FEED_URL: 'https://example.com/stream' })).toThrow(
      /MARKET_FEED_URL/,
    );
  });

  it('TICK_RETENTION_DAYS is a whole number of days, at least 1', () => {
    expect(loadConfig({ TICK_RETENTION_DAYS: '7' }).market.tickRetentionDays).toBe(7);
    expect(() => loadConfig({ TICK_RETENTION_DAYS: '0' })).toThrow(/TICK_RETENTION_DAYS/);
    expect(() => loadConfig({ TICK_RETENTION_DAYS: '1.5' })).toThrow(/TICK_RETENTION_DAYS/);
  });
});

/** A stand-in for Binance on localhost: sends what the test says, drops or refuses connections on demand. */
class FakeExchange {
  readonly server: WebSocketServer;
  refuse = false;
  sockets: ServerSocket[] = [];
  paths: string[] = [];

  constructor() {
    this.server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      verifyClient: (_info, done) => done(!this.refuse, 503),
    });
    this.server.on('connection', (socket, request) => {
      this.sockets.push(socket);
      this.paths.push(request.url ?? '');
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/stream`;
  }

  get latest(): ServerSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no connection yet');
    return socket;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Timers the test fires by hand: nothing in these tests waits for a real backoff. */
function manualSchedule() {
  const jobs: { fn: () => void; ms: number; cancelled: boolean; fired: boolean }[] = [];
  const schedule: Schedule = (fn, ms) => {
    const job = { fn, ms, cancelled: false, fired: false };
    jobs.push(job);
    return () => void (job.cancelled = true);
  };
  /** Fires the latest pending job of exactly `ms`. */
  const fire = (ms: number) => {
    const job = jobs.filter((j) => j.ms === ms && !j.cancelled && !j.fired).at(-1);
    if (!job)
      throw new Error(
        `no pending timer of ${ms} ms (pending: ${jobs.filter((j) => !j.cancelled && !j.fired).map((j) => j.ms)})`,
      );
    job.fired = true;
    job.fn();
  };
  return { schedule, fire, jobs };
}

async function sendFixture(
  exchange: FakeExchange,
  feed: BinanceFeed,
  lines: readonly string[],
): Promise<void> {
  const expected = lines.filter((line) => parseAggTrade(line) !== null).length;
  let seen = 0;
  const done = new Promise<void>((resolve) => {
    const onTrade = () => {
      seen += 1;
      if (seen === expected) {
        feed.off('trade', onTrade);
        resolve();
      }
    };
    feed.on('trade', onTrade);
  });
  for (const line of lines) exchange.latest.send(line);
  await done;
}

const cryptoOf = <T extends { instrument: string }>(prices: T[]): T[] =>
  prices.filter((p) => INSTRUMENTS[p.instrument as keyof typeof INSTRUMENTS].kind === 'crypto');

describe('the Binance feed against a local exchange', () => {
  let exchange: FakeExchange;
  let t: TestApp;
  beforeAll(async () => {
    exchange = new FakeExchange();
    await once(exchange.server, 'listening');
    t = await createTestApp();
  });
  afterAll(async () => {
    await exchange.close();
    await t.close();
  });

  it('connect → trades → sample; drop → nothing crypto; reconnect with growing, jittered backoff → resumes; a healthy hour resets the backoff', async () => {
    const clock = new ManualClock(T0);
    const timers = manualSchedule();
    const delays: number[] = [];
    const feed = new BinanceFeed({
      url: exchange.url,
      clock,
      schedule: timers.schedule,
      random: () => 0.5,
      backoff: { baseMs: 1_000, maxMs: 8_000, healthyMs: 60_000 },
    });
    feed.on('reconnect', (ms: number) => delays.push(ms));
    feed.start();
    await once(feed, 'open');
    expect(exchange.paths[0]).toBe(
      `/stream?streams=${BINANCE_INSTRUMENTS.map((s) => `${s.toLowerCase()}@aggTrade`).join('/')}`,
    );

    // Before any trade, nothing has a price.
    expect(feed.sample()).toEqual([]);
    await sendFixture(exchange, feed, fixture);
    const first = feed.sample(clock.now());
    const crypto = cryptoOf(first);
    expect(
      Object.fromEntries(
        crypto.map((p) => [p.instrument, { priceMinor: p.priceMinor, volumeMinor: p.volumeMinor }]),
      ),
    ).toEqual(EXPECTED);
    expect(crypto.every((p) => p.source === 'binance')).toBe(true);
    // Each price carries its trade's own time (Binance's T) and when it was received.
    const btcTrades = fixture
      .map(parseAggTrade)
      .filter((trade): trade is AggTrade => trade?.symbol === 'BTCUSDT');
    expect(crypto.find((p) => p.instrument === 'BTCUSDT')).toMatchObject({
      sourceTimeMs: btcTrades.at(-1)?.tradeTimeMs,
      receivedAtMs: clock.now().getTime(),
    });
    // Commodities, forex and metals have no Binance market: other sources price them.
    expect(first.filter((p) => !crypto.includes(p))).toEqual([]);
    // The volume is what traded since the previous sample; the last price stays.
    clock.advance(1_000);
    const second = cryptoOf(feed.sample(clock.now()));
    expect(second.find((p) => p.instrument === 'BTCUSDT')).toMatchObject({
      priceMinor: 9_501_421n,
      volumeMinor: 0n,
    });

    // The exchange drops us: the prices heard on that connection are gone at once.
    exchange.latest.terminate();
    await once(feed, 'close');
    expect(feed.connected).toBe(false);
    expect(cryptoOf(feed.sample(clock.now()))).toEqual([]);
    expect(delays).toEqual([750]);

    // It refuses us for a while: each failed attempt waits longer (ceiling doubles, equal jitter), up to the cap.
    exchange.refuse = true;
    for (const delay of [750, 1_500, 3_000, 6_000]) {
      timers.fire(delay);
      await once(feed, 'close');
    }
    expect(delays).toEqual([750, 1_500, 3_000, 6_000, 6_000]);
    expect(exchange.sockets).toHaveLength(1);

    // Back again: the feed reconnects and resumes with fresh trades only.
    exchange.refuse = false;
    timers.fire(6_000);
    await once(feed, 'open');
    expect(cryptoOf(feed.sample(clock.now()))).toEqual([]);
    await sendFixture(exchange, feed, fixture.slice(0, 3));
    expect(cryptoOf(feed.sample(clock.now())).map((p) => [p.instrument, p.priceMinor])).toEqual([
      ['BTCUSDT', 9_501_234n],
      ['ETHUSDT', 330_157n],
    ]);

    // A connection that stayed healthy for the healthy period starts the backoff over.
    clock.advance(60_000);
    await sendFixture(exchange, feed, fixture.slice(1, 2));
    exchange.latest.terminate();
    await once(feed, 'close');
    expect(delays.at(-1)).toBe(750);
    timers.fire(750);
    await once(feed, 'open');
    await feed.stop();
    expect(feed.connected).toBe(false);
  });

  it('a stream that falls silent is dropped and reopened; a symbol not traded for a minute is not sampled', async () => {
    const clock = new ManualClock(T0);
    const timers = manualSchedule();
    const feed = new BinanceFeed({
      url: exchange.url,
      clock,
      schedule: timers.schedule,
      random: () => 0,
      silenceMs: 30_000,
      maxTradeAgeMs: 60_000,
      backoff: { baseMs: 1_000, maxMs: 8_000, healthyMs: 60_000 },
    });
    feed.start();
    await once(feed, 'open');
    await sendFixture(exchange, feed, fixture);
    clock.advance(20_000);
    // A later ETH trade (the recorded one, 20 s on): an older one would be out of order and ignored.
    const later = JSON.parse(fixture[2] as string) as { data: { T: number; E: number } };
    later.data.T += 20_000;
    later.data.E += 20_000;
    await sendFixture(exchange, feed, [JSON.stringify(later)]);
    clock.advance(41_000);
    // BTC traded 61 s ago, ETH 41 s ago: only ETH is sampled.
    expect(cryptoOf(feed.sample(clock.now())).map((p) => p.instrument)).toEqual(['ETHUSDT']);
    // The watchdog checks every 10 s; the stream has been silent for 41 s.
    const connections = exchange.sockets.length;
    timers.fire(10_000);
    await once(feed, 'close');
    expect(cryptoOf(feed.sample(clock.now()))).toEqual([]);
    timers.fire(500);
    await once(feed, 'open');
    expect(exchange.sockets.length).toBe(connections + 1);
    await feed.stop();
    // Stopped: no timer left to reconnect or to watch.
    expect(timers.jobs.filter((job) => !job.cancelled && !job.fired)).toEqual([]);
  });

  it('the recorder stores each price with its own source: binance for crypto, the demo walk for the rest', async () => {
    const timers = manualSchedule();
    const feed = new BinanceFeed({ url: exchange.url, clock: t.clock, schedule: timers.schedule });
    const walk = new SimulatedFeed({
      seed: 5,
      instruments: INSTRUMENT_SYMBOLS.filter((s) => INSTRUMENTS[s].kind !== 'crypto'),
    });
    feed.start();
    await once(feed, 'open');
    await sendFixture(exchange, feed, fixture);
    t.clock.advance(1_000);
    const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feeds: [feed, walk] });
    expect(await recorder.recordOnce()).toBe(5 + 9);
    const rows = await queryRows<{
      instrument: string;
      price: string;
      source: string;
      volume: string;
    }>(
      t.database.db,
      sql`select k.instrument, k.price_minor::text as price, k.source, c.volume_minor::text as volume
          from market_ticks k join market_candles_1m c on c.instrument = k.instrument and c.open_time = date_trunc('minute', k.ts)
          where k.ts = ${t.clock.now().toISOString()}::timestamptz order by k.instrument`,
    );
    const bySymbol = Object.fromEntries(rows.map((row) => [row.instrument, row]));
    expect(bySymbol.BTCUSDT).toEqual({
      instrument: 'BTCUSDT',
      price: '9501421',
      source: 'binance',
      volume: '16545000',
    });
    expect(bySymbol.DOGEUSDT).toMatchObject({ price: '32019', source: 'binance' });
    expect(bySymbol.WTIUSD?.source).toBe('simulated');
    expect(bySymbol.XAUUSD?.source).toBe('simulated');
    // Not heard from Binance: not recorded at all (no stale or made-up crypto price).
    expect(bySymbol.BNBUSDT).toBeUndefined();
    // The tick keeps the quote it is the index of: Binance's trade time and receipt, relative to the second.
    const [btc] = await queryRows<{ components: unknown }>(
      t.database.db,
      sql`select components from market_ticks where instrument = 'BTCUSDT' and ts = ${t.clock.now().toISOString()}::timestamptz`,
    );
    const lastBtc = fixture
      .map(parseAggTrade)
      .filter((trade): trade is AggTrade => trade?.symbol === 'BTCUSDT')
      .at(-1);
    expect(btc?.components).toEqual([
      ['binance', '9501421', (lastBtc?.tradeTimeMs ?? 0) - t.clock.now().getTime(), -1_000],
    ]);
    await feed.stop();
    // Disconnected: the next second records only the simulated instruments.
    t.clock.advance(1_000);
    expect(await recorder.recordOnce()).toBe(9);
  });
});
