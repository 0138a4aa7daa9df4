import { randomBytes } from 'node:crypto';
import {
  type InstrumentSymbol,
  favoriteRequestSchema,
  favoritesSchema,
  instrumentsSchema,
  klinesQuerySchema,
  klinesSchema,
  marketPricesSchema,
  sparklinesSchema,
  tickerQuerySchema,
  tickerSchema,
  tickersSchema,
  INSTRUMENT_SYMBOLS,
} from '@tradewind/contract/market';
import {
  adminInstrumentListSchema,
  adminInstrumentSchema,
  instrumentSaveSchema,
} from '@tradewind/contract/catalog';
import { marketSourcesSchema } from '@tradewind/contract/market-sources';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { AdvisoryLeader } from '#platform/leader.ts';
import type { Relay } from '#platform/relay.ts';
import type { Hub } from '#platform/ws.ts';
import { BinanceFeed } from './binance.ts';
import { backfillDemoHistory } from './demo-history.ts';
import {
  type HistorySource,
  backfillSourceHistory,
  binanceHistory,
  pythHistory,
} from './source-history.ts';
import { demoWalkKey } from './demo-walk-key.ts';
import { type MarketFeed, SimulatedFeed } from './feed.ts';
import { MarketBroadcaster, isMarketChannel } from './live.ts';
import { PythFeed } from './pyth-feed.ts';
import { ContractListing } from './pyth/contracts.ts';
import { PythStream } from './pyth/stream.ts';
import type { ConditionState } from '#platform/conditions.ts';
import { readSharedSettings } from '../settings/service.ts';
import { FEED_STALE_S, MarketRecorder, RECORDER_LOCK_ID } from './recorder.ts';
import { sourcesView } from './sources-view.ts';
import { type SourcePlan, configuredPythFeeds, sourcePlan } from './sources.ts';
import type { TickReference } from './tick-references.ts';
import {
  ensureInstruments,
  instrumentsView,
  klines,
  listAdminInstruments,
  listFavorites,
  pricesView,
  saveInstrument,
  setFavorite,
  sparklines,
  ticker,
  tickers,
} from './service.ts';

const tags = ['market'];

interface MarketDeps {
  db: Db;
  clock: Clock;
  hub: Hub;
  relay: Relay;
  config: Config;
}

/**
 * Prices are read here and nowhere written: there is no route, CLI command or console
 * action that writes a tick (the route-table test checks it). Only the recorder does.
 */
export function registerMarketRoutes(app: FastifyInstance, deps: MarketDeps): MarketBroadcaster {
  app.addHook('onReady', () => ensureInstruments(deps.db));
  deps.hub.allow(isMarketChannel);
  const broadcaster = new MarketBroadcaster({
    db: deps.db,
    clock: deps.clock,
    hub: deps.hub,
    relay: deps.relay,
    log: app.log,
  });

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/prices',
      auth: 'none',
      summary:
        'Latest recorded price of each asset in USDT (null when no tick of the last 5 s exists)',
      tags,
      response: marketPricesSchema,
    },
    async ({ lang }) => pricesView(deps.db, deps.clock.now(), lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/instruments',
      auth: 'none',
      summary:
        'Every instrument with its kind, price scale and marks; names in the request language',
      tags,
      response: instrumentsSchema,
    },
    async ({ lang }) => instrumentsView(deps.db, lang, deps.config.market),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/market/instruments',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Every instrument with its marks, display name and order',
      tags,
      response: adminInstrumentListSchema,
    },
    async ({ lang }) => ({ items: await listAdminInstruments(deps.db, lang) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/market/sources',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        "Each instrument's price sources and their ids, and when each last counted (read-only: MARKET_SOURCES)",
      tags,
      response: marketSourcesSchema,
    },
    async () => sourcesView(deps.db, deps.config.market, deps.clock.now()),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/market/instruments',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: "Save an instrument's tradable flag, marks, display name and order (never a price)",
      tags,
      body: instrumentSaveSchema,
      response: adminInstrumentSchema,
    },
    async ({ operator, body }) => saveInstrument(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/tickers',
      auth: 'none',
      summary: "Every instrument's fresh price with rolling 24 h statistics",
      tags,
      response: tickersSchema,
    },
    async ({ lang }) => ({ items: await tickers(deps.db, deps.clock.now(), lang) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/sparklines',
      auth: 'none',
      summary: "Every instrument's last 24 hours, one close an hour, oldest first (the Trade list)",
      tags,
      response: sparklinesSchema,
    },
    async () => ({ items: await sparklines(deps.db, deps.clock.now()) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/ticker',
      auth: 'none',
      summary: "One instrument's fresh price with rolling 24 h statistics",
      tags,
      query: tickerQuerySchema,
      response: tickerSchema,
    },
    async ({ lang, query }) =>
      ticker(deps.db, deps.clock.now(), lang, query.symbol as InstrumentSymbol),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/klines',
      auth: 'none',
      summary:
        'Candles of an interval, oldest first: 1-minute candles as recorded, longer intervals aggregated from them',
      tags,
      query: klinesQuerySchema,
      response: klinesSchema,
    },
    async ({ query }) => klines(deps.db, deps.clock.now(), query),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/favorites',
      auth: 'user',
      summary: "The user's favourite instruments",
      tags,
      response: favoritesSchema,
    },
    async ({ auth }) => listFavorites(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/market/favorites',
      auth: 'user',
      summary: 'Marks or unmarks a favourite instrument (repeating either changes nothing)',
      tags,
      body: favoriteRequestSchema,
      response: favoritesSchema,
    },
    async ({ auth, body }) =>
      setFavorite(
        deps.db,
        deps.clock.now(),
        auth.userId,
        body.symbol as InstrumentSymbol,
        body.favorite,
      ),
  );

  return broadcaster;
}

/**
 * The feed recorder as a background loop of this process (ROLE `all` or `worker`): it
 * starts when the app is ready and stops, finishing the second in progress, when the app
 * closes (before the database does).
 */
export function registerMarketRecorder(
  app: FastifyInstance,
  deps: MarketDeps & { tickReferences: readonly TickReference[] },
): MarketRecorder {
  const { connectDedicated } = app.services.database;
  const { metrics } = app.services;
  const plan = sourcePlan(deps.config.market);
  const feeds: MarketFeed[] = [];
  // A placeholder key until boot reads the stored one (`demoWalkKey`), before the first sample.
  const walk =
    plan.simulated.length > 0
      ? new SimulatedFeed({ seed: randomBytes(32), instruments: plan.simulated })
      : null;
  if (walk) feeds.push(walk);
  // Demo mode's history before the first recorded minute, written in the background after
  // start (it takes a while on the embedded database; the live prices do not wait for it).
  if (walk && deps.config.market.demoHistoryDays > 0) {
    let history: Promise<void> | null = null;
    const closing = new AbortController();
    app.addHook('onReady', async () => {
      history = backfillDemoHistory(deps.db, {
        instruments: plan.simulated,
        now: deps.clock.now(),
        days: deps.config.market.demoHistoryDays,
        signal: closing.signal,
      })
        .then((candles) => {
          if (candles > 0) app.log.info({ candles }, 'demo mode: simulated market history written');
        })
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'demo mode: the simulated market history failed'),
        );
    });
    app.addHook('onClose', async () => {
      closing.abort();
      await history;
    });
  }
  if (deps.config.market.sources.includes('binance')) {
    const binance = new BinanceFeed({
      url: deps.config.market.feedUrl,
      clock: deps.clock,
      log: app.log,
    });
    app.addHook('onReady', async () => binance.start());
    app.addHook('onClose', () => binance.stop());
    feeds.push(binance);
  }
  let listing: ContractListing | null = null;
  if (deps.config.market.sources.includes('pyth')) {
    const { pythUrl, pythApiKey } = deps.config.market;
    if (!pythApiKey)
      app.log.warn('PYTH_API_KEY is not set: Hermes may refuse the stream (see docs/prices.md)');
    const pythFeeds = configuredPythFeeds(deps.config.market.pythFeedIds);
    const stream = new PythStream({
      clock: deps.clock,
      baseUrl: pythUrl,
      ...(pythApiKey ? { apiKey: pythApiKey } : {}),
      feeds: pythFeeds,
      log: app.log,
    });
    // Futures months Pyth lists after this release's list, read from Hermes and stored.
    const months = new ContractListing({
      db: deps.db,
      clock: deps.clock,
      feeds: pythFeeds,
      baseUrl: pythUrl,
      ...(pythApiKey ? { apiKey: pythApiKey } : {}),
      onFeeds: (feeds) => stream.setFeeds(feeds),
      log: app.log,
    });
    app.addHook('onReady', async () => {
      stream.start();
      months.start();
    });
    app.addHook('onClose', async () => {
      await months.stop();
      await stream.stop();
    });
    feeds.push(new PythFeed(stream));
    listing = months;
  }
  const unpriced = INSTRUMENT_SYMBOLS.filter((symbol) => plan.byInstrument[symbol].length === 0);
  if (unpriced.length > 0)
    app.log.warn(
      { unpriced },
      'no configured price source covers these instruments: they have no price and cannot be traded',
    );
  registerSourceHistory(app, deps, plan, () => recorder.isLeading, listing);
  const recorder = new MarketRecorder({
    db: deps.db,
    clock: deps.clock,
    feeds,
    relay: deps.relay,
    tickRetentionDays: deps.config.market.tickRetentionDays,
    tickReferences: deps.tickReferences,
    // Install-wide (modules/settings): a recorder taking over applies the band the last one did.
    quarantineBandPpm: async () => (await readSharedSettings(deps.db)).quarantineBandPpm,
    // On PostgreSQL several workers may run: one records, another takes over when it dies.
    ...(connectDedicated
      ? { leadership: new AdvisoryLeader({ connect: connectDedicated, lockId: RECORDER_LOCK_ID }) }
      : {}),
    log: app.log,
    onQuarantined: (instrument, source) => metrics.quarantined.inc({ instrument, source }),
  });
  metrics.readers.tickAges = () => recorder.tickAges(deps.clock.now().getTime());
  metrics.readers.sourceAges = () =>
    recorder.isLeading ? recorder.sourceAges(deps.clock.now().getTime()) : new Map();
  // The recorder's sources answer: each has had a quote accepted within FEED_STALE_S (judged by
  // its freshest instrument: markets close). Only the process that records is asked.
  app.readiness.add({
    name: 'prices',
    run: async () => {
      if (!recorder.isLeading) return;
      const stale = [...recorder.sourceAges(deps.clock.now().getTime())].filter(
        ([, ageS]) => ageS > FEED_STALE_S,
      );
      if (stale.length > 0) throw new Error(`stale: ${stale.map(([source]) => source).join(', ')}`);
    },
  });
  app.conditions.add({
    name: 'TradewindFeedStale',
    summary: `a price source has had no quote accepted for over ${FEED_STALE_S} s`,
    check: async () => {
      const states = new Map<string, ConditionState>();
      if (!recorder.isLeading) return states;
      for (const [source, ageS] of recorder.sourceAges(deps.clock.now().getTime()))
        states.set(
          `source=${source}`,
          ageS > FEED_STALE_S
            ? { firing: true, detail: { ageS: Math.round(ageS) } }
            : { firing: false },
        );
      return states;
    },
  });
  app.addHook('onReady', async () => {
    if (walk) walk.useKey(await demoWalkKey(deps.db, deps.clock.now()));
    recorder.start();
  });
  app.addHook('onClose', () => recorder.stop());
  return recorder;
}

/**
 * The real sources' history before the first recorded minute (source-history.ts), fetched in
 * the background after start by the process that records prices. Each instrument reads
 * Binance when Binance prices it (USDT prices and real volume), otherwise Pyth.
 */
function registerSourceHistory(
  app: FastifyInstance,
  deps: MarketDeps,
  plan: SourcePlan,
  isLeading: () => boolean,
  listing: ContractListing | null,
): void {
  const { market } = deps.config;
  if (market.historyDays <= 0) return;
  const sources = new Map<string, HistorySource>();
  if (market.sources.includes('binance'))
    sources.set('binance', binanceHistory({ baseUrl: market.binanceRestUrl }));
  if (market.sources.includes('pyth')) {
    const configured = configuredPythFeeds(market.pythFeedIds);
    sources.set(
      'pyth',
      pythHistory({
        baseUrl: market.pythHistoryUrl,
        ...(market.pythApiKey ? { apiKey: market.pythApiKey } : {}),
        feeds: () => listing?.feeds() ?? configured,
      }),
    );
  }
  const historyPlan = INSTRUMENT_SYMBOLS.flatMap((symbol) => {
    const priced = plan.byInstrument[symbol];
    const name = ['binance', 'pyth'].find((source) => priced.includes(source));
    const source = name ? sources.get(name) : undefined;
    return source ? [{ symbol, source }] : [];
  });
  if (historyPlan.length === 0) return;
  let history: Promise<void> | null = null;
  const closing = new AbortController();
  app.addHook('onReady', async () => {
    const now = deps.clock.now();
    // After the first read of Hermes' futures list: a commodity's recent minutes may be on a
    // month listed since this release (a fresh install after the last built-in month's roll).
    // Closing the app does not wait for that read.
    const listed = new Promise<void>((resolve) => {
      void (listing?.firstRead ?? Promise.resolve()).then(resolve);
      closing.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    history = listed
      .then(() =>
        backfillSourceHistory(deps.db, {
          plan: historyPlan,
          now,
          days: market.historyDays,
          isLeading,
          signal: closing.signal,
          log: app.log,
        }),
      )
      .then(() => undefined)
      .catch((error: unknown) =>
        app.log.error({ err: error }, 'the market history from the sources failed'),
      );
  });
  app.addHook('onClose', async () => {
    closing.abort();
    await history;
  });
}
