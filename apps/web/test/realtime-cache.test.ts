import type { Order, Orders } from '@tradewind/contract/instant';
import type { Klines, Ticker } from '@tradewind/contract/market';
import {
  type InfiniteData,
  QueryClient,
  QueryObserver,
  notifyManager,
} from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  balancesQueryKey,
  klinesQueryKey,
  orderQueryKey,
  ordersQueryKey,
  tickerQueryKey,
  tickersQueryKey,
} from '@/api/query-keys.ts';
import {
  MAX_CANDLES,
  TICKER_GATHER_MS,
  applyRealtimeMessage,
  cacheFeed,
  mergeCandle,
} from '@/api/realtime-cache.ts';
import { msUntil, resetServerClock } from '@/lib/server-clock.ts';

const ticker = (symbol: string, price: string, ts: string): Ticker => ({
  symbol,
  price,
  ts,
  source: 'simulated',
  sourceLabel: 'simulated (demo data)',
  open24h: '100',
  high24h: '110',
  low24h: '90',
  volume24h: '5',
  changePct: '1.00',
});

const candle = (t: number, c: string) => ({ t, o: '1', h: '2', l: '0.5', c, v: '3' });

const order = (id: string, overrides: Partial<Order> = {}): Order => ({
  id,
  publicId: 'abcdefghijklmnopqrstuv',
  symbol: 'BTCUSDT',
  direction: 'up',
  periodSeconds: 30,
  payoutRate: '0.85',
  feeRate: '0.002',
  stake: '10',
  fee: '0.02',
  quantity: '0.0001',
  state: 'open',
  displayStatus: 'in_progress',
  outcome: null,
  openTick: {
    id: '1',
    price: '100000',
    ts: '2026-11-22T10:00:00.000Z',
    source: 'simulated',
    sourceLabel: 'simulated (demo data)',
  },
  closeTick: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  deliverAt: '2026-11-22T10:00:30.000Z',
  settledAt: null,
  remainingMs: 30_000,
  payout: null,
  profit: null,
  returnRatePct: null,
  currentPnl: null,
  ...overrides,
});

let queryClient: QueryClient;
beforeEach(() => {
  queryClient = new QueryClient();
  resetServerClock();
});

const invalidated = (key: readonly unknown[]) =>
  queryClient.getQueryState(key)?.isInvalidated ?? false;

describe('real-time messages in the query cache', () => {
  it('a ticker message replaces that instrument in its own query and in the list, leaving the others', () => {
    const btc = ticker('BTCUSDT', '100', '2026-11-22T10:00:00.000Z');
    const eth = ticker('ETHUSDT', '10', '2026-11-22T10:00:00.000Z');
    queryClient.setQueryData(tickersQueryKey, { items: [btc, eth] });
    const next = ticker('BTCUSDT', '101.5', '2026-11-22T10:00:01.000Z');
    applyRealtimeMessage(queryClient, 'ticker.BTCUSDT', next);
    expect(queryClient.getQueryData(tickerQueryKey('BTCUSDT'))).toEqual(next);
    const list = queryClient.getQueryData<{ items: Ticker[] }>(tickersQueryKey);
    expect(list?.items.map((t) => t.price)).toEqual(['101.5', '10']);
    expect(list?.items[1]).toBe(eth);
  });

  it('an older ticker arriving late does not overwrite a newer one', () => {
    const newer = ticker('BTCUSDT', '102', '2026-11-22T10:00:02.000Z');
    queryClient.setQueryData(tickerQueryKey('BTCUSDT'), newer);
    queryClient.setQueryData(tickersQueryKey, { items: [newer] });
    applyRealtimeMessage(
      queryClient,
      'ticker.BTCUSDT',
      ticker('BTCUSDT', '99', '2026-11-22T10:00:01.000Z'),
    );
    expect(queryClient.getQueryData<Ticker>(tickerQueryKey('BTCUSDT'))?.price).toBe('102');
    expect(queryClient.getQueryData<{ items: Ticker[] }>(tickersQueryKey)?.items[0]?.price).toBe(
      '102',
    );
  });

  it('a malformed message changes nothing', () => {
    applyRealtimeMessage(queryClient, 'ticker.BTCUSDT', { symbol: 'BTCUSDT', price: 5 });
    expect(queryClient.getQueryData(tickerQueryKey('BTCUSDT'))).toBeUndefined();
    applyRealtimeMessage(queryClient, 'user.1', { type: 'order.unknown' });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('a kline message updates the current candle or appends the next, keeping the others as they were', () => {
    const first = candle(60_000, '1');
    const second = candle(120_000, '1.5');
    queryClient.setQueryData<Klines>(klinesQueryKey('BTCUSDT', '1m'), {
      symbol: 'BTCUSDT',
      interval: '1m',
      items: [first, second],
    });
    applyRealtimeMessage(queryClient, 'kline.BTCUSDT.1m', {
      symbol: 'BTCUSDT',
      interval: '1m',
      candle: candle(120_000, '1.7'),
    });
    let items = queryClient.getQueryData<Klines>(klinesQueryKey('BTCUSDT', '1m'))?.items ?? [];
    expect(items.map((c) => c.c)).toEqual(['1', '1.7']);
    expect(items[0]).toBe(first);
    applyRealtimeMessage(queryClient, 'kline.BTCUSDT.1m', {
      symbol: 'BTCUSDT',
      interval: '1m',
      candle: candle(180_000, '1.8'),
    });
    items = queryClient.getQueryData<Klines>(klinesQueryKey('BTCUSDT', '1m'))?.items ?? [];
    expect(items.map((c) => c.t)).toEqual([60_000, 120_000, 180_000]);
    // Another interval's data is untouched; a chart never loaded is not created.
    applyRealtimeMessage(queryClient, 'kline.BTCUSDT.5m', {
      symbol: 'BTCUSDT',
      interval: '5m',
      candle: candle(0, '1'),
    });
    expect(queryClient.getQueryData(klinesQueryKey('BTCUSDT', '5m'))).toBeUndefined();
  });

  it('mergeCandle keeps at most MAX_CANDLES and ignores candles older than it holds', () => {
    const klines: Klines = {
      symbol: 'X',
      interval: '1m',
      items: Array.from({ length: MAX_CANDLES }, (_, i) => candle(i * 60_000 + 60_000, '1')),
    };
    const next = mergeCandle(klines, candle((MAX_CANDLES + 1) * 60_000, '2'));
    expect(next.items).toHaveLength(MAX_CANDLES);
    expect(next.items.at(-1)?.c).toBe('2');
    expect(mergeCandle(klines, candle(1, '9'))).toBe(klines);
  });

  it('order.placed stores the order and refreshes the open list; the countdown learns the server clock', () => {
    queryClient.setQueryData(ordersQueryKey('open'), { pages: [], pageParams: [] });
    const placed = order('7', {
      deliverAt: new Date(Date.now() + 60_000 + 30_000).toISOString(),
      remainingMs: 30_000,
    });
    applyRealtimeMessage(queryClient, 'user.1', { type: 'order.placed', order: placed });
    expect(queryClient.getQueryData(orderQueryKey('7'))).toEqual(placed);
    expect(invalidated(ordersQueryKey('open'))).toBe(true);
    // The server's clock runs a minute ahead of this one: 30 s remain, not 90.
    const left = msUntil(placed.deliverAt);
    expect(left).toBeGreaterThan(29_000);
    expect(left).toBeLessThanOrEqual(30_000);
  });

  it('order.settled stores the result, takes it off the open list at once and refreshes both lists and the config', () => {
    const open = order('7');
    const other = order('8');
    queryClient.setQueryData<InfiniteData<Orders>>(ordersQueryKey('open'), {
      pages: [{ items: [open, other], nextCursor: null }],
      pageParams: [undefined],
    });
    queryClient.setQueryData(ordersQueryKey('settled'), { pages: [], pageParams: [] });
    queryClient.setQueryData(['contracts', 'config', 'en'], {});
    const settled = order('7', {
      state: 'settled',
      displayStatus: 'completed',
      outcome: 'win',
      payout: '18.5',
      profit: '8.48',
      remainingMs: 0,
    });
    applyRealtimeMessage(queryClient, 'user.1', { type: 'order.settled', order: settled });
    expect(queryClient.getQueryData<Order>(orderQueryKey('7'))?.outcome).toBe('win');
    const openPages = queryClient.getQueryData<InfiniteData<Orders>>(ordersQueryKey('open'));
    expect(openPages?.pages[0]?.items.map((o) => o.id)).toEqual(['8']);
    expect(invalidated(ordersQueryKey('settled'))).toBe(true);
    expect(invalidated(['contracts', 'config', 'en'])).toBe(true);
  });

  it("message.new refreshes the messages and what the message is about: a KYC result refreshes the profile's verified tag", () => {
    for (const key of [
      ['messages', 'list'],
      ['user', 'profile'],
      ['kyc'],
      ['credit'],
      ['loans', 'mine'],
    ])
      queryClient.setQueryData(key, {});
    const message = {
      id: '1',
      kind: 'kyc.approved',
      title: 'Identity verified',
      body: '…',
      link: '/RealName',
      read: false,
      createdAt: '2026-11-22T00:00:00.000Z',
    };
    applyRealtimeMessage(queryClient, 'user.1', { type: 'message.new', message, count: 1 });
    expect([['user', 'profile'], ['kyc'], ['credit']].map(invalidated)).toEqual([true, true, true]);
    expect(invalidated(['loans', 'mine'])).toBe(false);
  });

  it('balance.changed refreshes the balances', () => {
    queryClient.setQueryData(balancesQueryKey, {});
    applyRealtimeMessage(queryClient, 'user.1', { type: 'balance.changed' });
    expect(invalidated(balancesQueryKey)).toBe(true);
  });
});

describe('the cache feed', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gathers the tickers that arrive together into one write, the latest per instrument; other messages go in at once', async () => {
    vi.useFakeTimers();
    const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
    queryClient.setQueryData(tickersQueryKey, {
      items: symbols.map((symbol) => ticker(symbol, '1', '2026-11-22T10:00:00.000Z')),
    });
    queryClient.setQueryData(balancesQueryKey, {});
    const prices = () =>
      queryClient
        .getQueryData<{ items: Ticker[] }>(tickersQueryKey)
        ?.items.map((t) => t.price)
        .join(' ');
    // What a component would render with, each time it is told the list changed (useQuery
    // subscribes through notifyManager.batchCalls, as here).
    const seen: (string | undefined)[] = [];
    const stop = new QueryObserver(queryClient, {
      queryKey: tickersQueryKey,
      enabled: false,
    }).subscribe(notifyManager.batchCalls(() => seen.push(prices())));
    const feed = cacheFeed(queryClient);
    // One message per task, as a socket delivers them.
    for (const symbol of symbols) {
      feed(`ticker.${symbol}`, ticker(symbol, '2', '2026-11-22T10:00:01.000Z'));
      await vi.advanceTimersByTimeAsync(1);
    }
    feed('ticker.BTCUSDT', ticker('BTCUSDT', '3', '2026-11-22T10:00:02.000Z'));
    feed('user.1', { type: 'balance.changed' });
    expect(invalidated(balancesQueryKey)).toBe(true);
    expect(prices()).toBe('1 1 1');
    expect(seen).toEqual([]);

    await vi.advanceTimersByTimeAsync(TICKER_GATHER_MS);
    expect(prices()).toBe('3 2 2');
    expect(queryClient.getQueryData<Ticker>(tickerQueryKey('ETHUSDT'))?.price).toBe('2');
    // Told only once the whole batch is in: one render for all of them.
    expect(new Set(seen)).toEqual(new Set(['3 2 2']));

    // The next second's tickers gather again.
    feed('ticker.SOLUSDT', ticker('SOLUSDT', '4', '2026-11-22T10:00:03.000Z'));
    await vi.advanceTimersByTimeAsync(TICKER_GATHER_MS);
    expect(prices()).toBe('3 2 4');
    stop();
  });
});
