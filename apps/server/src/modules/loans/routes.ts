import {
  loanApplyRequestSchema,
  loanDecideRequestSchema,
  loanDisburseRequestSchema,
  loanListQuerySchema,
  loanListSchema,
  loanProductListSchema,
  loanQuerySchema,
  loanQueueItemSchema,
  loanQueueQuerySchema,
  loanQueueSchema,
  loanRepayRequestSchema,
  loanSchema,
} from '@tradewind/contract/loans';
import {
  adminLoanProductListSchema,
  adminLoanProductSchema,
  loanProductSaveSchema,
} from '@tradewind/contract/catalog';
import { CATALOG_ROLES, REVIEW_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { type CreatedMessage, publishMessages } from '../messages/service.ts';
import { listAdminLoanProducts, saveLoanProduct } from './catalog.ts';
import {
  apply,
  decideLoan,
  disburseLoan,
  getLoan,
  listLoans,
  listProducts,
  listQueue,
  repay,
} from './service.ts';
import { LoanAccrualWorker } from './worker.ts';

const tags = ['loans'];

type Deps = { db: Db; clock: Clock; ledger: Ledger; hub: Hub };

export function registerLoanRoutes(app: FastifyInstance, deps: Deps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/loans/products',
      auth: 'user',
      summary: 'Loan products with their amount range, periods and rates',
      tags,
      response: loanProductListSchema,
    },
    async ({ lang }) => ({ items: await listProducts(deps.db, lang) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/loans',
      auth: 'user',
      summary: 'Apply for a loan with ID photos (verified users; one unsettled loan at a time)',
      tags,
      body: loanApplyRequestSchema,
      response: loanSchema,
      rateLimit: { max: 20, timeWindow: 60_000 },
    },
    async ({ auth, body, lang }) =>
      deps.db.transaction((tx) => apply(tx, deps.clock.now(), auth.userId, body, lang)),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/loans',
      auth: 'user',
      summary: 'Your loans, newest first',
      tags,
      query: loanListQuerySchema,
      response: loanListSchema,
    },
    async ({ auth, query, lang }) =>
      listLoans(deps.db, deps.clock.now(), auth.userId, query.cursor, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/loan',
      auth: 'user',
      summary: 'One of your loans with what settles it now',
      tags,
      query: loanQuerySchema,
      response: loanSchema,
    },
    async ({ auth, query, lang }) =>
      getLoan(deps.db, deps.clock.now(), auth.userId, Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/loans/repay',
      auth: 'user',
      money: true,
      summary:
        'Repay a disbursed or overdue loan in full from spot USDT (principal, interest to date, overdue interest)',
      tags,
      body: loanRepayRequestSchema,
      response: loanSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, body, tx, lang, afterCommit }) => {
      const created: CreatedMessage[] = [];
      const loan = await repay(
        tx,
        deps.ledger,
        deps.clock.now(),
        auth.userId,
        Number(body.id),
        lang,
        created,
      );
      afterCommit(() => {
        publishMessages(deps.hub, created);
        deps.hub.publishToUser(auth.userId, { type: 'balance.changed' });
      });
      return loan;
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/loans/queue',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Loans under review or waiting for disbursement, oldest first',
      tags,
      query: loanQueueQuerySchema,
      response: loanQueueSchema,
    },
    async ({ query }) => listQueue(deps.db, deps.clock.now(), query.cursor),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/loans/decide',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Approve or reject (with a reason) a loan under review',
      tags,
      body: loanDecideRequestSchema,
      response: loanQueueItemSchema,
    },
    async ({ operator, body }) => {
      const created: CreatedMessage[] = [];
      const decided = await decideLoan(deps.db, deps.clock.now(), operator, body, created);
      publishMessages(deps.hub, created);
      return decided;
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/loans/disburse',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary:
        'Mark an approved loan disbursed: the amount is credited to the user from house:loans',
      tags,
      body: loanDisburseRequestSchema,
      response: loanQueueItemSchema,
    },
    async ({ operator, body }) => {
      const created: CreatedMessage[] = [];
      const disbursed = await disburseLoan(
        deps.db,
        deps.ledger,
        deps.clock.now(),
        operator,
        Number(body.id),
        created,
      );
      publishMessages(deps.hub, created);
      deps.hub.publishToUser(Number(disbursed.uid), { type: 'balance.changed' });
      return disbursed;
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/loans/products',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Every loan product, enabled or not, with its texts in every language',
      tags,
      response: adminLoanProductListSchema,
    },
    async () => ({ items: await listAdminLoanProducts(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/loans/products',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Create (no id) or edit a loan product; loans already applied for keep their terms',
      tags,
      body: loanProductSaveSchema,
      response: adminLoanProductSchema,
    },
    async ({ operator, body }) => saveLoanProduct(deps.db, deps.clock.now(), operator, body),
  );
}

/** Runs the overdue accrual worker in this process (ROLE all or worker). */
export function registerLoanWorker(app: FastifyInstance, deps: Deps): LoanAccrualWorker {
  const worker = new LoanAccrualWorker({
    ...deps,
    log: app.log,
    onRound: (ok) => app.services.metrics.jobRound('loans', ok),
  });
  app.addHook('onReady', async () => {
    worker.start();
  });
  app.addHook('onClose', () => worker.stop());
  return worker;
}
