import { dashboardSchema, ledgerCheckSchema } from '@tradewind/contract/dashboard';
import { OPERATOR_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import { route } from '#platform/http.ts';
import { type LedgerCheckDeps, LedgerCheckWorker, runLedgerCheck } from './ledger-check.ts';
import { dashboard } from './service.ts';

const tags = ['dashboard'];

/** The operator console's overview: every operator may read it and ask for a ledger check. */
export function registerDashboardRoutes(app: FastifyInstance, deps: LedgerCheckDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/dashboard',
      auth: 'operator',
      roles: OPERATOR_ROLES,
      summary: 'Daily money in and out, house result, queues, obligations, ledger check',
      tags,
      response: dashboardSchema,
    },
    async () => dashboard(deps.db, deps.clock.now()),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/dashboard/ledger-check',
      auth: 'operator',
      roles: OPERATOR_ROLES,
      summary: 'Run the ledger invariant check now (at most once a minute) and store its result',
      tags,
      response: ledgerCheckSchema,
    },
    async ({ operator }) => {
      const result = await runLedgerCheck(deps, operator);
      if (!result) throw new Error('an operator ledger check returned no result');
      return result;
    },
  );
}

export function registerLedgerCheckWorker(
  app: FastifyInstance,
  deps: LedgerCheckDeps,
): LedgerCheckWorker {
  const worker = new LedgerCheckWorker({ ...deps, log: app.log });
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', () => worker.stop());
  return worker;
}
