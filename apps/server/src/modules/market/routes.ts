import { INSTRUMENT_SYMBOLS, marketPricesSchema } from '@tradewind/contract/market';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import { SimulatedFeed } from './feed.ts';
import { MarketRecorder } from './recorder.ts';
import { ensureInstruments, pricesView } from './service.ts';

const tags = ['market'];
const TICKER_CHANNELS = new Set(INSTRUMENT_SYMBOLS.map((symbol) => `ticker.${symbol}`));

/**
 * Prices are read here and nowhere written: there is no route, CLI command or console
 * action that writes a tick (the route-table test checks it). Only the recorder does.
 */
export function registerMarketRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock; hub: Hub }): void {
  app.addHook('onReady', () => ensureInstruments(deps.db));
  deps.hub.allow((channel) => TICKER_CHANNELS.has(channel));

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
}

/**
 * The feed recorder as a background loop of this process (ROLE `all` or `worker`): it
 * starts when the app is ready and stops, finishing the second in progress, when the app
 * closes (before the database does).
 */
export function registerMarketRecorder(app: FastifyInstance, deps: { db: Db; clock: Clock; hub: Hub }): MarketRecorder {
  const feed = new SimulatedFeed({ seed: deps.clock.now().getTime() % 4_294_967_296 });
  const recorder = new MarketRecorder({ db: deps.db, clock: deps.clock, feed, hub: deps.hub, log: app.log });
  app.addHook('onReady', async () => {
    await recorder.resume();
    recorder.start();
  });
  app.addHook('onClose', () => recorder.stop());
  return recorder;
}
