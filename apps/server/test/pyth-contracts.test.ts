import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ContractListing,
  type ListedContract,
  lastTradeDateOf,
  loadListedContracts,
  readListing,
  withListedContracts,
} from '../src/modules/market/pyth/contracts.ts';
import {
  PYTH_FEEDS,
  type PythFeedMap,
  frontContract,
  pythFeedsAt,
} from '../src/modules/market/pyth/feed-ids.ts';
import { configuredPythFeeds } from '../src/modules/market/sources.ts';
import { type TestApp, createTestApp } from './harness.ts';
import { type LocalHttp, startLocalHttp } from './local-http.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/pyth');
/** Hermes' `/v2/price_feeds?query=WTI` reply, built in its shape around real WTI rows (fixtures README). */
const LISTING = JSON.parse(fs.readFileSync(path.join(dir, 'hermes-price-feeds-wti.json'), 'utf8'));
const WTIF7_ID = '87f7b1af745a1a6affb67275f813c081a65a3ccd46729c6170284176b5077e9c';
const WTIG7_ID = '1bf199adbd38b2519884990c7ff01927a2dcefbd2cfa082eec8def9a06dae689';
/** The day after WTIF7 rolled (three days before its last trading day, 2026-12-21). */
const AFTER_F7_ROLL = Date.UTC(2026, 11, 18, 12);

const wtiFront = (feeds: PythFeedMap, atMs: number) => {
  const spec = feeds.WTIUSD;
  if (spec?.kind !== 'futures') throw new Error('WTI follows futures');
  return frontContract(spec, atMs);
};

describe('reading Hermes’ futures listing', () => {
  it('keeps the root’s months with the last trading day their description states, and names what it refuses', () => {
    const { contracts, refused } = readListing(LISTING, 'WTI');
    expect(contracts).toEqual([
      {
        symbol: 'Commodities.WTIZ6/USD',
        feedId: '0a76185a3bd608f10216036ee37140112c1c296d4cba31c4e2822f44e8dc0433',
        lastTradeDate: '2026-11-20',
      },
      { symbol: 'Commodities.WTIF7/USD', feedId: WTIF7_ID, lastTradeDate: '2026-12-21' },
      { symbol: 'Commodities.WTIG7/USD', feedId: WTIG7_ID, lastTradeDate: '2027-01-20' },
    ]);
    // USOILSPOT and the one-month index match the query but are not months of the root.
    expect(refused).toEqual([
      {
        symbol: 'Commodities.WTIH7/USD',
        reason: 'its last trading day 2027-06-20 does not fit the contract code',
      },
      { symbol: 'Commodities.WTIJ7/USD', reason: 'Pyth marks it deprecated' },
      { symbol: 'Commodities.WTIK7/USD', reason: 'its description states no last trading day' },
    ]);
    // The months the built-in list has carry the same ids there.
    const wti = PYTH_FEEDS.WTIUSD;
    if (wti?.kind !== 'futures') throw new Error('WTI follows futures');
    for (const month of contracts.slice(0, 2))
      expect(wti.contracts.find((c) => c.symbol === month.symbol)).toEqual(month);
  });

  it('anything else is refused or passed over, never thrown', () => {
    for (const body of [null, 'text', 42, {}, { feeds: [] }])
      expect(readListing(body, 'WTI')).toEqual({
        contracts: [],
        refused: [{ symbol: '', reason: 'the reply is not a list' }],
      });
    const entry = (id: unknown, symbol: unknown, description: unknown) => ({
      id,
      attributes: { symbol, description },
    });
    const { contracts, refused } = readListing(
      [
        null,
        [],
        { id: WTIG7_ID },
        entry(WTIG7_ID, 7, 'WTI 20 Jan 2027'),
        entry('xyz', 'Commodities.WTIG7/USD', 'WTI 20 Jan 2027'),
        entry(`0x${WTIG7_ID.toUpperCase()}`, 'Commodities.WTIG7/USD', 'WTI 20 Jan 2027'),
        entry(WTIG7_ID, 'Commodities.WTIG7/USD', 'WTI 20 Jan 2027'),
        entry(WTIG7_ID, 'Commodities.WTIG7/USDT', 'WTI 20 Jan 2027'),
        entry(WTIG7_ID, 'Commodities.WTIXG7/USD', 'WTI 20 Jan 2027'),
        entry(WTIG7_ID, 'Commodities.WTIG7/USD', 'WTI 31 Feb 2027'),
      ],
      'WTI',
    );
    expect(contracts).toEqual([
      { symbol: 'Commodities.WTIG7/USD', feedId: WTIG7_ID, lastTradeDate: '2027-01-20' },
    ]);
    expect(refused.map((r) => r.reason)).toEqual([
      'its id is not a 32-byte hex feed id',
      'listed twice',
      'its description states no last trading day',
    ]);
  });

  it('reads a last trading day however Pyth spells the month, and only a real date', () => {
    expect(lastTradeDateOf('PYTH PRICE IN USD FOR WTI 19 MAY 2026')).toBe('2026-05-19');
    expect(lastTradeDateOf('WTI 21 Dec 2026')).toBe('2026-12-21');
    expect(lastTradeDateOf('High-grade copper 29 Dec 2026')).toBe('2026-12-29');
    expect(lastTradeDateOf('PYTH WTI 1 SEPT. 2027 / US DOLLAR')).toBe('2027-09-01');
    expect(lastTradeDateOf('WTI 31 APRIL 2027')).toBeNull();
    expect(lastTradeDateOf('WTI 20 SMARCH 2027')).toBeNull();
    expect(lastTradeDateOf('CONSTANT 1M WTI 23')).toBeNull();
  });

  it('a listed month is added after the built-in ones and becomes front at its turn; it never replaces a built-in id', () => {
    expect(wtiFront(PYTH_FEEDS, AFTER_F7_ROLL)).toBeNull();
    const listed: ListedContract[] = [
      // A built-in month listed under another id: the built-in id stays.
      {
        instrument: 'WTIUSD',
        symbol: 'Commodities.WTIF7/USD',
        feedId: 'b'.repeat(64),
        lastTradeDate: '2026-12-21',
      },
      {
        instrument: 'WTIUSD',
        symbol: 'Commodities.WTIG7/USD',
        feedId: WTIG7_ID,
        lastTradeDate: '2027-01-20',
      },
    ];
    const merged = withListedContracts(PYTH_FEEDS, listed);
    expect(wtiFront(merged, Date.UTC(2026, 11, 17, 23, 59))?.feedId).toBe(WTIF7_ID);
    expect(wtiFront(merged, AFTER_F7_ROLL)?.symbol).toBe('Commodities.WTIG7/USD');
    expect(wtiFront(merged, Date.UTC(2027, 0, 17))).toBeNull();
    expect(pythFeedsAt(AFTER_F7_ROLL, merged).get(WTIG7_ID)?.instrument).toBe('WTIUSD');
    expect(merged.COPPERUSD).toBe(PYTH_FEEDS.COPPERUSD);
    // An instrument the operator pointed at one feed keeps it.
    const pinned = configuredPythFeeds({ WTIUSD: 'c'.repeat(64) });
    expect(withListedContracts(pinned, listed).WTIUSD).toEqual(pinned.WTIUSD);
  });
});

const json = (response: ServerResponse, body: unknown) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('the listing stored and handed to the stream', () => {
  let t: TestApp;
  let hermes: LocalHttp;
  const warnings: string[] = [];
  const infos: unknown[] = [];
  let handed: PythFeedMap[] = [];
  const listing = () =>
    new ContractListing({
      db: t.database.db,
      clock: t.clock,
      feeds: PYTH_FEEDS,
      baseUrl: hermes.url,
      apiKey: 'test-key',
      onFeeds: (feeds) => handed.push(feeds),
      log: {
        info: (detail: unknown, message?: string) => infos.push([detail, message]),
        warn: (detail: { instruments?: string[] }, message?: string) =>
          warnings.push(
            `${message}${detail.instruments ? ` ${detail.instruments.join(',')}` : ''}`,
          ),
      } as never,
    });

  beforeAll(async () => {
    t = await createTestApp();
    hermes = await startLocalHttp();
  });
  afterAll(async () => {
    await hermes.close();
    await t.close();
  });
  beforeEach(() => {
    warnings.length = 0;
    infos.length = 0;
    handed = [];
    hermes.requests.length = 0;
  });

  it('asks Hermes for each futures root with the key, stores the new months once, and the stream gets them', async () => {
    t.clock.set(Date.UTC(2026, 11, 20));
    hermes.handle = (request, response) => {
      const query = new URL(request.url ?? '', hermes.url).searchParams.get('query');
      json(response, query === 'WTI' ? LISTING : []);
    };
    const merged = await listing().refresh();
    expect(
      hermes.requests.map((r) => [
        new URL(r.url ?? '', hermes.url).pathname,
        Object.fromEntries(new URL(r.url ?? '', hermes.url).searchParams),
        r.headers.authorization,
      ]),
    ).toEqual([
      ['/v2/price_feeds', { query: 'WTI', asset_type: 'commodities' }, 'Bearer test-key'],
      ['/v2/price_feeds', { query: 'CC', asset_type: 'commodities' }, 'Bearer test-key'],
    ]);
    // Every month of the reply is stored, the built-in ones too (a later release may drop them).
    expect(
      (await loadListedContracts(t.database.db)).map((c) => [c.symbol, c.lastTradeDate]),
    ).toEqual([
      ['Commodities.WTIZ6/USD', '2026-11-20'],
      ['Commodities.WTIF7/USD', '2026-12-21'],
      ['Commodities.WTIG7/USD', '2027-01-20'],
    ]);
    expect(infos).toHaveLength(1);
    expect(JSON.stringify(infos[0])).toContain(`Commodities.WTIG7/USD 2027-01-20 ${WTIG7_ID}`);
    expect(handed).toEqual([merged]);
    expect(wtiFront(merged, AFTER_F7_ROLL)?.feedId).toBe(WTIG7_ID);
    // WTI's list now reaches past the week ahead; copper's (last month CCZ6, rolling
    // 2026-12-26) does not: the operators hear it.
    expect(warnings).toEqual([
      'pyth feed: futures months refused from the listing',
      'pyth feed: no later futures month is known: these instruments have no Pyth price after their roll (docs/prices.md) COPPERUSD',
    ]);

    // Read again: nothing new is stored or announced.
    infos.length = 0;
    const again = await listing().refresh();
    expect(infos).toHaveLength(0);
    expect(await loadListedContracts(t.database.db)).toHaveLength(3);
    expect(wtiFront(again, AFTER_F7_ROLL)?.feedId).toBe(WTIG7_ID);
  });

  it('a refusal, a reply that is not JSON or no answer changes nothing: the months stored before still count', async () => {
    t.clock.set(AFTER_F7_ROLL);
    for (const reply of [
      (_request: IncomingMessage, response: ServerResponse) =>
        response.writeHead(401).end('{"message":"Unauthorized"}'),
      (_request: IncomingMessage, response: ServerResponse) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end('{not json'),
      (_request: IncomingMessage, response: ServerResponse) => response.destroy(),
    ]) {
      warnings.length = 0;
      hermes.handle = reply;
      const merged = await listing().refresh();
      expect(wtiFront(merged, t.clock.now().getTime())?.feedId).toBe(WTIG7_ID);
      expect(warnings.length).toBeGreaterThan(0);
    }
    expect(await loadListedContracts(t.database.db)).toHaveLength(3);
  });

  it('a stored month cannot be rewritten by a later listing', async () => {
    hermes.handle = (_request, response) =>
      json(response, [
        {
          id: 'd'.repeat(64),
          attributes: {
            symbol: 'Commodities.WTIG7/USD',
            description: 'PYTH PRICE IN USD FOR WTI 20 JANUARY 2027',
          },
        },
      ]);
    const merged = await listing().refresh();
    expect(wtiFront(merged, AFTER_F7_ROLL)?.feedId).toBe(WTIG7_ID);
    expect(
      (await loadListedContracts(t.database.db)).find((c) => c.symbol === 'Commodities.WTIG7/USD')
        ?.feedId,
    ).toBe(WTIG7_ID);
  });

  it('one root’s failed read does not cost the other its months', async () => {
    hermes.handle = (request, response) => {
      if (new URL(request.url ?? '', hermes.url).searchParams.get('query') === 'WTI')
        response.destroy();
      else
        json(response, [
          {
            id: 'a'.repeat(64),
            attributes: {
              symbol: 'Commodities.CCF7/USD',
              description: 'PYTH PRICE IN USD FOR HIGH GRADE COPPER 27 JANUARY 2027',
            },
          },
        ]);
    };
    const merged = await listing().refresh();
    expect(warnings).toContain('pyth feed: the futures listing could not be read');
    const copper = merged.COPPERUSD;
    if (copper?.kind !== 'futures') throw new Error('copper follows futures');
    expect(frontContract(copper, Date.UTC(2026, 11, 27))?.symbol).toBe('Commodities.CCF7/USD');
    expect((await loadListedContracts(t.database.db)).map((c) => c.symbol)).toContain(
      'Commodities.CCF7/USD',
    );
  });
});

describe('the app', () => {
  it('with Pyth as a source, reads the listing at start and stores the months Hermes lists', async () => {
    const hermes = await startLocalHttp();
    hermes.handle = (request, response) => {
      const url = new URL(request.url ?? '', hermes.url);
      if (url.pathname === '/v2/price_feeds')
        json(response, url.searchParams.get('query') === 'WTI' ? LISTING : []);
      else response.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
    };
    const app = await createTestApp({
      workers: true,
      env: { MARKET_SOURCES: 'pyth', PYTH_HERMES_URL: hermes.url, PYTH_API_KEY: 'k' },
    });
    try {
      await vi.waitFor(
        async () => expect(await loadListedContracts(app.database.db)).toHaveLength(3),
        { timeout: 10_000 },
      );
      expect(
        hermes.requests.filter((r) => r.url?.startsWith('/v2/price_feeds')).map((r) => r.url),
      ).toEqual([
        '/v2/price_feeds?query=WTI&asset_type=commodities',
        '/v2/price_feeds?query=CC&asset_type=commodities',
      ]);
    } finally {
      await app.close();
      await hermes.close();
    }
  });
  it('on a fresh install after a roll, the chart history of WTI is read on the month Hermes lists', async () => {
    const hermes = await startLocalHttp();
    const historyAsked: string[] = [];
    hermes.handle = (request, response) => {
      const url = new URL(request.url ?? '', hermes.url);
      if (url.pathname === '/v2/price_feeds')
        json(response, url.searchParams.get('query') === 'WTI' ? LISTING : []);
      else if (url.pathname === '/pyth/v1/fixed_rate@200ms/history') {
        const symbol = url.searchParams.get('symbol') ?? '';
        historyAsked.push(symbol);
        // Only WTI's minutes are served; the other instruments are refused and left at once.
        if (symbol.startsWith('Commodities.WTI')) json(response, { s: 'no_data' });
        else response.writeHead(404).end();
      } else response.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
    };
    // Two days after WTIF7, the last built-in month, rolled: only the listing knows WTIG7.
    const app = await createTestApp({
      workers: true,
      startAt: Date.UTC(2026, 11, 20, 12),
      env: {
        MARKET_SOURCES: 'pyth',
        PYTH_HERMES_URL: hermes.url,
        PYTH_API_KEY: 'k',
        PYTH_HISTORY_URL: `${hermes.url}/pyth/v1/fixed_rate@200ms`,
        MARKET_HISTORY_DAYS: '1',
      },
    });
    try {
      await vi.waitFor(
        () => expect(historyAsked.filter((s) => s.startsWith('Commodities.WTI'))).toHaveLength(2),
        { timeout: 25_000, interval: 100 },
      );
      // Both of the day's pages on WTIG7, asked for after the listing was read.
      expect(historyAsked.filter((s) => s.startsWith('Commodities.WTI'))).toEqual([
        'Commodities.WTIG7/USD',
        'Commodities.WTIG7/USD',
      ]);
      const firstHistory = hermes.requests.findIndex((r) => r.url?.includes('/history'));
      const lastListing = hermes.requests.findLastIndex((r) =>
        r.url?.startsWith('/v2/price_feeds'),
      );
      expect(lastListing).toBeGreaterThanOrEqual(0);
      expect(firstHistory).toBeGreaterThan(lastListing);
    } finally {
      await app.close();
      await hermes.close();
    }
  }, 40_000);
});
