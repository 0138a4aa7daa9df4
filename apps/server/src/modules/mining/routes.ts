import {
  miningAdminProductListSchema,
  miningAdminProductSchema,
  miningDecideRequestSchema,
  miningProductInputSchema,
  miningProductListSchema,
  miningProductQuerySchema,
  miningProductSchema,
  miningQueueItemSchema,
  miningQueueQuerySchema,
  miningQueueSchema,
  miningRentalDetailSchema,
  miningRentalListQuerySchema,
  miningRentalListSchema,
  miningRentalQuerySchema,
  miningRentalSchema,
  rentRequestSchema,
} from '@tradewind/contract/mining';
import { CATALOG_ROLES, REVIEW_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db, Executor } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { readSharedSettings } from '../settings/service.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { type CreatedMessage, publishMessages } from '../messages/service.ts';
import {
  decideRental,
  getProduct,
  getRental,
  listAdminProducts,
  listProducts,
  listQueue,
  listRentals,
  rent,
  saveProduct,
} from './service.ts';
import { MAX_SWEEP_MS, MiningPayoutWorker } from './worker.ts';

const tags = ['mining'];

type Deps = { db: Db; clock: Clock; config: Config; ledger: Ledger; hub: Hub };

/** Demo mode only, whatever the setting says (the console refuses it elsewhere too). */
async function autoApproves(deps: { db: Executor; config: Config }): Promise<boolean> {
  return deps.config.demoMode && (await readSharedSettings(deps.db)).miningAutoApprove;
}

export function registerMiningRoutes(app: FastifyInstance, deps: Deps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/mining/products',
      auth: 'user',
      summary: 'Miners for rent with their terms',
      tags,
      response: miningProductListSchema,
    },
    async ({ lang }) => ({
      items: await listProducts(deps.db, lang),
      autoApprove: await autoApproves(deps),
    }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/mining/product',
      auth: 'user',
      summary: 'One miner with its description, costs and risks',
      tags,
      query: miningProductQuerySchema,
      response: miningProductSchema,
    },
    async ({ query, lang }) => getProduct(deps.db, Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/mining/rentals',
      auth: 'user',
      money: true,
      summary:
        'Rent a miner: the amount is paid from spot USDT now and the rental waits for review',
      tags,
      body: rentRequestSchema,
      response: miningRentalSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, body, tx, lang, afterCommit }) => {
      const rental = await rent(
        tx,
        deps.ledger,
        deps.clock.now(),
        {
          dayMs: deps.config.miningDayMs,
          autoApprove: await autoApproves({ ...deps, db: tx }),
        },
        auth.userId,
        body,
        lang,
      );
      afterCommit(() => deps.hub.publishToUser(auth.userId, { type: 'balance.changed' }));
      return rental;
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/mining/rentals',
      auth: 'user',
      summary: 'Your rentals (tabs: active, completed, all), newest first',
      tags,
      query: miningRentalListQuerySchema,
      response: miningRentalListSchema,
    },
    async ({ auth, query, lang }) =>
      listRentals(deps.db, auth.userId, query.tab, query.cursor, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/mining/rental',
      auth: 'user',
      summary: 'One of your rentals with its payouts',
      tags,
      query: miningRentalQuerySchema,
      response: miningRentalDetailSchema,
    },
    async ({ auth, query, lang }) => getRental(deps.db, auth.userId, Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/mining/rentals/queue',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Rentals under review, oldest first',
      tags,
      query: miningQueueQuerySchema,
      response: miningQueueSchema,
    },
    async ({ query }) => listQueue(deps.db, query.cursor),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/mining/rentals/decide',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Approve (start) or reject (refund, with a reason) a rental under review',
      tags,
      body: miningDecideRequestSchema,
      response: miningQueueItemSchema,
    },
    async ({ operator, body }) => {
      const created: CreatedMessage[] = [];
      const decided = await decideRental(
        deps.db,
        deps.ledger,
        deps.clock.now(),
        operator,
        body,
        created,
      );
      publishMessages(deps.hub, created);
      deps.hub.publishToUser(Number(decided.uid), {
        type: 'mining.decided',
        id: decided.id,
        status: decided.status,
      });
      if (decided.status === 'rejected')
        deps.hub.publishToUser(Number(decided.uid), { type: 'balance.changed' });
      return decided;
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/mining/products',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'All miners, enabled or not',
      tags,
      response: miningAdminProductListSchema,
    },
    async () => ({ items: await listAdminProducts(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/mining/products',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Create (no id) or edit a miner; rentals already made keep their terms',
      tags,
      body: miningProductInputSchema,
      response: miningAdminProductSchema,
    },
    async ({ operator, body }) => saveProduct(deps.db, deps.clock.now(), operator, body),
  );
}

/** Runs the daily payout worker in this process (ROLE all or worker). */
export function registerMiningWorker(app: FastifyInstance, deps: Deps): MiningPayoutWorker {
  // A sweep at least every minute, or four times a (demo-shortened) day.
  const worker = new MiningPayoutWorker(
    { ...deps, log: app.log, onRound: (ok) => app.services.metrics.jobRound('mining', ok) },
    Math.min(MAX_SWEEP_MS, Math.max(250, Math.floor(deps.config.miningDayMs / 4))),
  );
  app.addHook('onReady', async () => {
    worker.start();
  });
  app.addHook('onClose', () => worker.stop());
  return worker;
}
