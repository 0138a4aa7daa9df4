import { randomBytes } from 'node:crypto';
import {
  type InstrumentSymbol,
  favoriteRequestSchema,
  favoritesSchema,
  instrumentsSchema,
  klinesQuerySchema,
  klinesSchema,
  marketPricesSchema,
  tickerQuerySchema,
  tickerSchema,
  tickersSchema,
} from '@tradewind/contract/market';
import { adminInstrumentListSchema, adminInstrumentSchema, instrumentSaveSchema } from '@tradewind/contract/catalog';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Relay } from '#platform/relay.ts';
import type { Hub } from '#platform/ws.ts';
import { BinanceFeed } from './binance.ts';
import { demoWalkKey } from './demo-walk-key.ts';
import { type MarketFeed, SimulatedFeed } from './feed.ts';
import { MarketBroadcaster, isMarketChannel } from './live.ts';
import { MarketRecorder } from './recorder.ts';
import type { TickReference } from './tick-references.ts';
import { ensureInstruments, instrumentsView, klines, listAdminInstruments, listFavorites, pricesView, saveInstrument, setFavorite, ticker, tickers } from './service.ts';

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
  const broadcaster = new MarketBroadcaster({ db: deps.db, clock: deps.clock, hub: deps.hub, relay: deps.relay, log: app.log });

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/prices',
      auth: 'none',
      summary: 'Latest recorded price of each asset in USDT (null when no tick of the last 5 s exists)',
      tags,
      response: marketPricesSchema,
    },
    async ({ lang }) => pricesView(deps.db, deps.clock.now(), lang),
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/market/instruments', auth: 'none', summary: 'Every instrument with its kind, price scale and marks; names in the request language', tags, response: instrumentsSchema },
    async ({ lang }) => instrumentsView(deps.db, lang, { demoMode: deps.config.demoMode, feed: deps.config.market.feed }),
  );

  route(
    app,
    { method: 'GET', url: '/api/admin/v1/market/instruments', auth: 'operator', roles: CATALOG_ROLES, summary: 'Every instrument with its marks, display name and order', tags, response: adminInstrumentListSchema },
    async ({ lang }) => ({ items: await listAdminInstruments(deps.db, lang) }),
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
    { method: 'GET', url: '/api/v1/market/tickers', auth: 'none', summary: "Every instrument's fresh price with rolling 24 h statistics", tags, response: tickersSchema },
    async ({ lang }) => ({ items: await tickers(deps.db, deps.clock.now(), lang) }),
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/market/ticker', auth: 'none', summary: "One instrument's fresh price with rolling 24 h statistics", tags, query: tickerQuerySchema, response: tickerSchema },
    async ({ lang, query }) => ticker(deps.db, deps.clock.now(), lang, query.symbol as InstrumentSymbol),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/market/klines',
      auth: 'none',
      summary: 'Candles of an interval, oldest first: 1-minute candles as recorded, longer intervals aggregated from them',
      tags,
      query: klinesQuerySchema,
      response: klinesSchema,
    },
    async ({ query }) => klines(deps.db, deps.clock.now(), query),
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/market/favorites', auth: 'user', summary: "The user's favourite instruments", tags, response: favoritesSchema },
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
    async ({ auth, body }) => setFavorite(deps.db, deps.clock.now(), auth.userId, body.symbol as InstrumentSymbol, body.favorite),
  );

  return broadcaster;
}

/**
 * The feed recorder as a background loop of this process (ROLE `all` or `worker`): it
 * starts when the app is ready and stops, finishing the second in progress, when the app
 * closes (before the database does).
 */
export function registerMarketRecorder(app: FastifyInstance, deps: MarketDeps & { tickReferences: readonly TickReference[] }): MarketRecorder {
  // A placeholder key until boot reads the stored one (`demoWalkKey`), before the first sample.
  const seed = randomBytes(32);
  let feed: MarketFeed & { useKey(key: Uint8Array): void };
  if (deps.config.market.feed === 'binance') {
    const binance = new BinanceFeed({ url: deps.config.market.feedUrl, clock: deps.clock, seed, log: app.log });
    app.addHook('onReady', async () => binance.start());
    app.addHook('onClose', () => binance.stop());
    // Binance has no commodities, forex or metals: those ticks stay simulated and say so.
    app.log.warn('MARKET_FEED=binance prices the crypto pairs; commodities, forex and metals remain on the simulated feed (labelled simulated).');
    feed = binance;
  } else {
    feed = new SimulatedFeed({ seed });
  }
  const recorder = new MarketRecorder({ db: deps.db, clock: deps.clock, feed, relay: deps.relay, tickRetentionDays: deps.config.market.tickRetentionDays, tickReferences: deps.tickReferences, log: app.log });
  app.addHook('onReady', async () => {
    feed.useKey(await demoWalkKey(deps.db, deps.clock.now()));
    await recorder.resume();
    recorder.start();
  });
  app.addHook('onClose', () => recorder.stop());
  return recorder;
}
