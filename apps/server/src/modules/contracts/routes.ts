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
import {
  adminPeriodListSchema,
  adminPeriodSchema,
  periodSaveSchema,
} from '@tradewind/contract/catalog';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import { route } from '#platform/http.ts';
import { listAdminPeriods, savePeriod } from './catalog.ts';
import type { ContractsDeps, ContractsModule } from './module.ts';
import { placeOrder, precheckOrder } from './place-order.ts';
import { contractConfig, getOrder, listOrders, replayOrder, saveSettings } from './service.ts';

const tags = ['contracts'];

declare module 'fastify' {
  interface FastifyInstance {
    /** The placement batcher and, in a worker process, the settlement worker (tests and diagnostics read them). */
    contracts: ContractsModule;
  }
}

/**
 * Instant contracts over HTTP, on the module `createContractsModule` built. No route here (or
 * anywhere) writes a price or chooses an outcome: orders open on the latest recorded tick, and
 * only the settlement worker settles them, by the rule, on recorded ticks (the route-table
 * test checks every route).
 */
export function registerContractRoutes(
  app: FastifyInstance,
  deps: ContractsDeps,
  module: ContractsModule,
): void {
  app.decorate('contracts', module);
  app.addHook('onClose', () => module.batcher.drain());

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/contracts/periods',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Every contract period, enabled or not',
      tags,
      response: adminPeriodListSchema,
    },
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
    {
      method: 'GET',
      url: '/api/v1/contracts/config',
      auth: 'user',
      summary:
        'Periods with payout and fee rates, stake limits, your limits and the settlement rule',
      tags,
      response: contractConfigSchema,
    },
    async ({ auth, lang }) => contractConfig(deps.db, deps.clock.now(), auth.userId, lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/contracts/settings',
      auth: 'user',
      summary:
        'Set or remove your daily loss limit (losses and fees since 00:00 UTC, open orders counted as lost)',
      tags,
      body: contractSettingsRequestSchema,
      response: contractConfigSchema,
    },
    async ({ auth, body, lang }) => {
      const now = deps.clock.now();
      await saveSettings(deps.db, now, auth.userId, body);
      return contractConfig(deps.db, now, auth.userId, lang);
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
      summary:
        'Place an instant contract: stake + fee are locked in the futures account until delivery',
      tags,
      body: placeOrderRequestSchema,
      response: placeOrderResponseSchema,
      secretFields: ['tradePassword'],
      // The trading password is checked on every attempt, replays too; a wrong one counts toward the lock.
      precheck: ({ body, auth }) => precheckOrder(deps, auth.userId, body),
    },
    ({ auth, body, idempotency, lang, request }) =>
      placeOrder(
        module,
        {
          userId: auth.userId,
          lang,
          key: idempotency.key,
          hash: idempotency.hash,
          requestId: request.id,
        },
        body,
      ),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/contracts/orders',
      auth: 'user',
      summary: 'Your open or settled orders, newest first',
      tags,
      query: ordersQuerySchema,
      response: ordersSchema,
    },
    async ({ auth, query, lang }) =>
      listOrders(deps.db, deps.clock.now(), auth.userId, query, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/contracts/order',
      auth: 'user',
      summary: 'One of your orders, with its open and close ticks',
      tags,
      query: orderQuerySchema,
      response: orderSchema,
    },
    async ({ auth, query, lang }) =>
      getOrder(deps.db, deps.clock.now(), auth.userId, Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/contracts/replay',
      auth: 'none',
      summary:
        "Anyone can recompute a settled order's result from the recorded ticks and compare it with the stored one",
      tags,
      query: replayQuerySchema,
      response: replaySchema,
    },
    async ({ query, lang }) => replayOrder(deps.db, query.publicId, lang),
  );
}
