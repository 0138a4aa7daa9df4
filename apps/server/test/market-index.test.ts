import { INSTRUMENTS, type InstrumentSymbol } from '@tradewind/contract/market';
import { parseAmount } from '@tradewind/contract/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPrice, MarketFeed } from '../src/modules/market/feed.ts';
import { PythFeed } from '../src/modules/market/pyth-feed.ts';
import type { ReceivedPythTick } from '../src/modules/market/pyth/stream.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, createTestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A source whose next answers the test sets: price text and the quote's age in ms at the sampled second. */
class ScriptedSource implements MarketFeed {
  quotes: { instrument: InstrumentSymbol; price: string; ageMs?: number; volume?: bigint }[] = [];
  constructor(readonly source: string) {}
  sample(now: Date): FeedPrice[] {
    const second = Math.floor(now.getTime() / 1000) * 1000;
    return this.quotes.map(({ instrument, price, ageMs = 0, volume }) => ({
      instrument,
      priceMinor: parseAmount(price, INSTRUMENTS[instrument].priceScale) ?? 0n,
      sourceTimeMs: second - ageMs,
      receivedAtMs: second - ageMs + 30,
      ...(volume === undefined ? {} : { volumeMinor: volume }),
    }));
  }
}

interface TickRow {
  price: string;
  source: string;
  components: [string, string, number, number][] | null;
}

async function tickAt(instrument: InstrumentSymbol): Promise<TickRow | undefined> {
  const [row] = await queryRows<TickRow>(
    t.database.db,
    sql`select price_minor::text as price, source, components from market_ticks where instrument = ${instrument} and ts = ${t.clock.now().toISOString()}::timestamptz`,
  );
  return row;
}

async function quarantinedSince(
  since: Date,
): Promise<{ instrument: string; source: string; price: string; reference: string }[]> {
  return queryRows(
    t.database.db,
    sql`select instrument, source, price_minor::text as price, reference_minor::text as reference from market_quarantined_quotes where received_at >= ${since.toISOString()}::timestamptz order by id`,
  );
}

describe('the recorded index', () => {
  it('is the median of the fresh sources, kept with each quote it is the median of', async () => {
    const a = new ScriptedSource('binance');
    const b = new ScriptedSource('pyth');
    const c = new ScriptedSource('okx');
    const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feeds: [a, b, c] });
    t.clock.advance(10_000);
    a.quotes = [{ instrument: 'BTCUSDT', price: '95000.00', ageMs: 200, volume: 5_000_000n }];
    b.quotes = [{ instrument: 'BTCUSDT', price: '95010.00', ageMs: 400 }];
    c.quotes = [{ instrument: 'BTCUSDT', price: '95030.00', ageMs: 4_000 }];
    expect(await recorder.recordOnce()).toBe(1);
    const tick = await tickAt('BTCUSDT');
    expect(tick?.price).toBe('9501000');
    expect(tick?.source).toBe('binance+okx+pyth');
    expect(tick?.components).toEqual([
      ['binance', '9500000', -200, -170],
      ['okx', '9503000', -4_000, -3_970],
      ['pyth', '9501000', -400, -370],
    ]);
  });

  it('leaves out quotes older than 5 s and, with none fresh, records no price', async () => {
    const a = new ScriptedSource('binance');
    const b = new ScriptedSource('pyth');
    const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feeds: [a, b] });
    t.clock.advance(10_000);
    a.quotes = [{ instrument: 'ETHUSDT', price: '3300.00', ageMs: 5_001 }];
    b.quotes = [{ instrument: 'ETHUSDT', price: '3302.00', ageMs: 1_000 }];
    expect(await recorder.recordOnce()).toBe(1);
    expect(await tickAt('ETHUSDT')).toMatchObject({ price: '330200', source: 'pyth' });
    // Five seconds on, the source still answers that same quote (now 6 s old): no index.
    t.clock.advance(5_000);
    b.quotes = [{ instrument: 'ETHUSDT', price: '3302.00', ageMs: 6_000 }];
    a.quotes = [];
    expect(await recorder.recordOnce()).toBe(0);
    expect(await tickAt('ETHUSDT')).toBeUndefined();
  });

  it('quarantines a quote far from the other sources: recorded with its reference, never in the index', async () => {
    const a = new ScriptedSource('binance');
    const b = new ScriptedSource('pyth');
    const c = new ScriptedSource('okx');
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feeds: [a, b, c],
      quarantineBandPpm: 10_000,
    });
    t.clock.advance(10_000);
    const since = t.clock.now();
    a.quotes = [{ instrument: 'SOLUSDT', price: '190.00' }];
    b.quotes = [{ instrument: 'SOLUSDT', price: '190.10' }];
    expect(await recorder.recordOnce()).toBe(1);
    t.clock.advance(1_000);
    // One large trade on one venue: 5 % off the others at the instant.
    c.quotes = [{ instrument: 'SOLUSDT', price: '199.50' }];
    a.quotes = [{ instrument: 'SOLUSDT', price: '190.02' }];
    b.quotes = [{ instrument: 'SOLUSDT', price: '190.08' }];
    expect(await recorder.recordOnce()).toBe(1);
    expect(await tickAt('SOLUSDT')).toMatchObject({ price: '19005', source: 'binance+pyth' });
    // Measured against the others as they stood: Binance's new 190.02 and Pyth's 190.10 of a second ago.
    expect(await quarantinedSince(since)).toEqual([
      { instrument: 'SOLUSDT', source: 'okx', price: '19950', reference: '19006' },
    ]);
    expect(recorder.counts.quarantined).toBe(1);
  });

  it('alone, a source is measured against its own last minute; after a minute without an accepted quote it is believed again', async () => {
    const a = new ScriptedSource('pyth');
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feeds: [a],
      quarantineBandPpm: 10_000,
    });
    t.clock.advance(10_000);
    const since = t.clock.now();
    a.quotes = [{ instrument: 'XAUUSD', price: '2650.00' }];
    expect(await recorder.recordOnce()).toBe(1);
    t.clock.advance(1_000);
    a.quotes = [{ instrument: 'XAUUSD', price: '2800.00' }];
    expect(await recorder.recordOnce()).toBe(1);
    // The wild quote is out; the accepted one is still fresh (1 s), so the index holds it.
    expect(await tickAt('XAUUSD')).toMatchObject({ price: '265000' });
    expect(await quarantinedSince(since)).toHaveLength(1);
    t.clock.advance(61_000);
    a.quotes = [{ instrument: 'XAUUSD', price: '2800.00' }];
    expect(await recorder.recordOnce()).toBe(1);
    expect(await tickAt('XAUUSD')).toMatchObject({ price: '280000' });
  });

  it('drops duplicates and out-of-order quotes and counts them; a quote a source no longer answers leaves the index', async () => {
    const a = new ScriptedSource('binance');
    const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feeds: [a] });
    t.clock.advance(10_000);
    a.quotes = [{ instrument: 'LTCUSDT', price: '100.00', ageMs: 0 }];
    expect(await recorder.recordOnce()).toBe(1);
    t.clock.advance(1_000);
    // The same trade again (now 1 s old), then an older one.
    a.quotes = [{ instrument: 'LTCUSDT', price: '100.00', ageMs: 1_000 }];
    expect(await recorder.recordOnce()).toBe(1);
    t.clock.advance(1_000);
    a.quotes = [{ instrument: 'LTCUSDT', price: '99.00', ageMs: 3_000 }];
    expect(await recorder.recordOnce()).toBe(1);
    expect(await tickAt('LTCUSDT')).toMatchObject({ price: '10000' });
    expect(recorder.counts).toMatchObject({ duplicates: 1, outOfOrder: 1 });
    t.clock.advance(1_000);
    a.quotes = [];
    expect(await recorder.recordOnce()).toBe(0);
  });

  it('the demo walk alone keeps its rows small: no components when the one source quoted exactly that second', async () => {
    const a = new ScriptedSource('simulated');
    const recorder = new MarketRecorder({ db: t.database.db, clock: t.clock, feeds: [a] });
    t.clock.advance(10_000);
    a.quotes = [{ instrument: 'EURUSD', price: '1.08500' }];
    // ScriptedSource stamps receipt 30 ms after the source time, so make a plain one.
    a.sample = (now: Date) => [
      {
        instrument: 'EURUSD',
        priceMinor: 108_500n,
        sourceTimeMs: Math.floor(now.getTime() / 1000) * 1000,
        receivedAtMs: Math.floor(now.getTime() / 1000) * 1000,
      },
    ];
    expect(await recorder.recordOnce()).toBe(1);
    expect(await tickAt('EURUSD')).toEqual({
      price: '108500',
      source: 'simulated',
      components: null,
    });
  });

  it('takes Pyth’s last update on the live connection with its publish time; a dropped connection answers nothing', async () => {
    const latest = new Map<InstrumentSymbol, ReceivedPythTick>();
    const stream = {
      connected: true,
      latest: (instrument: InstrumentSymbol) => latest.get(instrument),
    };
    const binance = new ScriptedSource('binance');
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feeds: [binance, new PythFeed(stream)],
    });
    t.clock.advance(10_000);
    const nowMs = Math.floor(t.clock.now().getTime() / 1000) * 1000;
    latest.set('XAGUSD', {
      symbol: 'XAGUSD',
      source: 'pyth',
      sourceId: 'f2fb02c3',
      priceMinor: 31_200n,
      confMinor: 10n,
      publishTimeMs: nowMs - 1_000,
      receivedAtMs: nowMs - 600,
    });
    latest.set('BNBUSDT', {
      symbol: 'BNBUSDT',
      source: 'pyth',
      sourceId: '2f95862b',
      priceMinor: 65_010n,
      confMinor: 5n,
      publishTimeMs: nowMs - 400,
      receivedAtMs: nowMs - 350,
    });
    binance.quotes = [{ instrument: 'BNBUSDT', price: '650.00', ageMs: 100 }];
    expect(await recorder.recordOnce()).toBe(2);
    expect(await tickAt('XAGUSD')).toEqual({
      price: '31200',
      source: 'pyth',
      components: [['pyth', '31200', -1_000, -600]],
    });
    expect(await tickAt('BNBUSDT')).toMatchObject({ price: '65005', source: 'binance+pyth' });
    t.clock.advance(1_000);
    stream.connected = false;
    expect(await recorder.recordOnce()).toBe(1);
    expect(await tickAt('BNBUSDT')).toMatchObject({ price: '65000', source: 'binance' });
  });
});
