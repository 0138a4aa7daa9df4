import type { MarketSources } from '@tradewind/contract/market-sources';
import { INSTRUMENT_SYMBOLS, type InstrumentSymbol } from '@tradewind/contract/market';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPrice, MarketFeed } from '../src/modules/market/feed.ts';
import { saveListedContracts } from '../src/modules/market/pyth/contracts.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { type TestApp, call, createTestApp, operatorToken } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  // Demo mode with both real sources: the walk prices only what neither covers.
  t = await createTestApp({ env: { MARKET_SOURCES: 'binance,pyth' } });
});
afterAll(() => t.close());

const feed = (
  source: string,
  quotes: Partial<Record<InstrumentSymbol, [bigint, number]>>,
): MarketFeed => ({
  source,
  sample: (now: Date): FeedPrice[] =>
    Object.entries(quotes).map(([instrument, [priceMinor, ageMs]]) => ({
      instrument: instrument as InstrumentSymbol,
      priceMinor,
      sourceTimeMs: now.getTime() - ageMs,
      receivedAtMs: now.getTime(),
    })),
});

describe('the console’s price sources', () => {
  it('lists each instrument’s sources with their ids and when each last counted; read-only, and no price field', async () => {
    t.clock.advance(1_000);
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feeds: [
        feed('binance', { BTCUSDT: [9_500_000n, 300] }),
        feed('pyth', { BTCUSDT: [9_500_100n, 700] }),
      ],
    });
    expect(await recorder.recordOnce()).toBe(1);
    const { token } = await operatorToken(t, 'catalog');
    const reply = await call<MarketSources>(t.app, 'GET', '/api/admin/v1/market/sources', {
      token,
    });
    expect(reply.status).toBe(200);
    const bySymbol = Object.fromEntries(reply.body.data.items.map((item) => [item.symbol, item]));
    expect(reply.body.data.items.map((item) => item.symbol)).toEqual(INSTRUMENT_SYMBOLS);
    const ts = Math.floor(t.clock.now().getTime() / 1000) * 1000;
    expect(bySymbol.BTCUSDT?.sources).toEqual([
      {
        source: 'binance',
        id: 'btcusdt@aggTrade',
        label: 'BTCUSDT',
        lastQuoteAt: new Date(ts - 300).toISOString(),
      },
      {
        source: 'pyth',
        id: 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
        label: 'Crypto.BTC/USD',
        lastQuoteAt: new Date(ts - 700).toISOString(),
      },
    ]);
    expect(bySymbol.EURUSD?.sources.map((s) => [s.source, s.label])).toEqual([
      ['pyth', 'FX.EUR/USD'],
    ]);
    // On the test clock (2026-11-21) WTI follows its January contract; natural gas, the index.
    expect(bySymbol.WTIUSD?.sources.map((s) => [s.source, s.label])).toEqual([
      ['pyth', 'Commodities.WTIF7/USD'],
    ]);
    expect(bySymbol.NGASUSD?.sources.map((s) => [s.source, s.label])).toEqual([
      ['pyth', 'Commodities.Index.NATGAS/USD'],
    ]);
    expect(JSON.stringify(reply.body.data)).not.toMatch(/"price/);
    expect(reply.body.data).toMatchObject({ freshMs: 5_000, quarantineBandPpm: 10_000 });
    // Users and reviewers do not see it; there is no way to write it.
    const reviewer = (await operatorToken(t, 'reviewer')).token;
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/market/sources', { token: reviewer })).status,
    ).toBe(403);
    expect(
      (await call(t.app, 'POST', '/api/admin/v1/market/sources', { token, body: {} })).status,
    ).toBe(404);
  });

  it('after a roll the built-in list does not cover, WTI shows the month found listed on Hermes', async () => {
    t.clock.set(Date.UTC(2026, 11, 19));
    const { token } = await operatorToken(t, 'catalog');
    const wtiSource = async () =>
      (
        await call<MarketSources>(t.app, 'GET', '/api/admin/v1/market/sources', { token })
      ).body.data.items.find((item) => item.symbol === 'WTIUSD')?.sources;
    expect(await wtiSource()).toEqual([
      { source: 'pyth', id: 'pyth', label: 'pyth', lastQuoteAt: null },
    ]);
    await saveListedContracts(t.database.db, t.clock.now(), [
      {
        instrument: 'WTIUSD',
        symbol: 'Commodities.WTIG7/USD',
        feedId: 'f'.repeat(64),
        lastTradeDate: '2027-01-20',
      },
    ]);
    expect(await wtiSource()).toEqual([
      { source: 'pyth', id: 'f'.repeat(64), label: 'Commodities.WTIG7/USD', lastQuoteAt: null },
    ]);
  });
});
