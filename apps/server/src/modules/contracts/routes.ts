import {
  contractConfigSchema,
  contractSettingsRequestSchema,
  orderQuerySchema,
  orderSchema,
  ordersQuerySchema,
  ordersSchema,
  placeOrderRequestSchema,
  placeOrderResponseSchema,
  replayQuerySchema,
  replaySchema,
} from '@tradewind/contract/instant';
import { adminPeriodListSchema, adminPeriodSchema, periodSaveSchema } from '@tradewind/contract/catalog';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { isTradable } from '../market/service.ts';
import { isMoneyPasswordSet, verifyMoneyPassword } from '../money-password/service.ts';
import { amountOf } from '../wallet/service.ts';
import { OrderBatcher } from './batcher.ts';
import { listAdminPeriods, savePeriod } from './catalog.ts';
import { contractConfig, getOrder, listOrders, replayOrder, saveSettings } from './service.ts';
import { Settlement } from './settlement.ts';

const tags = ['contracts'];

declare module 'fastify' {
  interface FastifyInstance {
    /** The placement batcher and, in a worker process, the settlement worker (tests and diagnostics read them). */
    contracts: ContractsModule;
  }
}

export interface ContractsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  ledger: Ledger;
  hub: Hub;
}

export interface ContractsModule {
  batcher: OrderBatcher;
  /** Set when this process runs the settlement worker: its timer hears of every order placed here. */
  settlement: Settlement | null;
}

/**
 * Instant contracts over HTTP. No route here (or anywhere) writes a price or chooses an
 * outcome: orders open on the latest recorded tick, and only the settlement worker settles
 * them, by the rule, on recorded ticks (the route-table test checks every route).
 */
export function registerContractRoutes(app: FastifyInstance, deps: ContractsDeps): ContractsModule {
  const module: ContractsModule = { batcher: null as unknown as OrderBatcher, settlement: null };
  module.batcher = new OrderBatcher({
    db: deps.db,
    clock: deps.clock,
    ledger: deps.ledger,
    hub: deps.hub,
    maxOpenOrders: deps.config.contractMaxOpenOrders,
    isTradable: (symbol) => isTradable(symbol, { demoMode: deps.config.demoMode, feed: deps.config.market.feed }),
    log: app.log,
    onPlaced: (deliverAt) => module.settlement?.notePlaced(deliverAt),
  });
  app.decorate('contracts', module);
  app.addHook('onClose', () => module.batcher.drain());

  route(
    app,
    { method: 'GET', url: '/api/admin/v1/contracts/periods', auth: 'operator', roles: CATALOG_ROLES, summary: 'Every contract period, enabled or not', tags, response: adminPeriodListSchema },
    async () => ({ items: await listAdminPeriods(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/contracts/periods',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Create (no id) or edit a contract period; orders already placed keep their terms',
      tags,
      body: periodSaveSchema,
      response: adminPeriodSchema,
    },
    async ({ operator, body }) => savePeriod(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/contracts/config', auth: 'user', summary: 'Periods with payout and fee rates, stake limits, your limits and the settlement rule', tags, response: contractConfigSchema },
    async ({ auth, lang }) => contractConfig(deps.db, deps.clock.now(), auth.userId, lang, deps.config.contractMaxOpenOrders),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/contracts/settings',
      auth: 'user',
      summary: 'Set or remove your daily loss limit (losses and fees since 00:00 UTC, open orders counted as lost)',
      tags,
      body: contractSettingsRequestSchema,
      response: contractConfigSchema,
    },
    async ({ auth, body, lang }) => {
      const now = deps.clock.now();
      await saveSettings(deps.db, now, auth.userId, body);
      return contractConfig(deps.db, now, auth.userId, lang, deps.config.contractMaxOpenOrders);
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/contracts/orders',
      auth: 'user',
      money: true,
      ownIdempotency: true,
      summary: 'Place an instant contract: stake + fee are locked in the futures account until delivery',
      tags,
      body: placeOrderRequestSchema,
      response: placeOrderResponseSchema,
      secretFields: ['tradePassword'],
      // The trading password is checked on every attempt, replays too; a wrong one counts toward the lock.
      precheck: async ({ body, auth }) => {
        if (body.tradePassword !== undefined && (await isMoneyPasswordSet(deps.db, auth.userId, 'trade'))) {
          await verifyMoneyPassword(deps, auth.userId, 'trade', body.tradePassword, 'tradePassword');
        }
      },
    },
    async ({ auth, body, idempotency, lang }) => {
      const stakeMinor = amountOf(body.amount, 'USDT');
      return module.batcher.submit({ userId: auth.userId, key: idempotency.key, hash: idempotency.hash, body, stakeMinor, lang });
    },
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/contracts/orders', auth: 'user', summary: 'Your open or settled orders, newest first', tags, query: ordersQuerySchema, response: ordersSchema },
    async ({ auth, query, lang }) => listOrders(deps.db, deps.clock.now(), auth.userId, query, lang),
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/contracts/order', auth: 'user', summary: 'One of your orders, with its open and close ticks', tags, query: orderQuerySchema, response: orderSchema },
    async ({ auth, query, lang }) => getOrder(deps.db, deps.clock.now(), auth.userId, Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/contracts/replay',
      auth: 'none',
      summary: "Anyone can recompute a settled order's result from the recorded ticks and compare it with the stored one",
      tags,
      query: replayQuerySchema,
      response: replaySchema,
    },
    async ({ query, lang }) => replayOrder(deps.db, query.publicId, lang),
  );

  return module;
}

/**
 * The settlement worker in this process (ROLE `all` or `worker`): it starts when the app is
 * ready (catching up on whatever came due while no worker ran) and stops, finishing the
 * batch in progress, when the app closes (before the database does).
 */
export function registerSettlementWorker(app: FastifyInstance, deps: ContractsDeps, module: ContractsModule): Settlement {
  const settlement = new Settlement({ db: deps.db, clock: deps.clock, ledger: deps.ledger, hub: deps.hub, log: app.log });
  module.settlement = settlement;
  app.addHook('onReady', async () => {
    void settlement.start();
  });
  app.addHook('onClose', () => settlement.stop());
  return settlement;
}
