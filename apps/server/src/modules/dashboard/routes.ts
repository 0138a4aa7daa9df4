import { dashboardSchema, ledgerCheckSchema } from '@tradewind/contract/dashboard';
import { OPERATOR_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import { route } from '#platform/http.ts';
import {
  LEDGER_CHECK_INTERVAL_MS,
  type LedgerCheckDeps,
  LedgerCheckWorker,
  latestLedgerCheck,
  runLedgerCheck,
} from './ledger-check.ts';
import { dashboard } from './service.ts';

/** No check newer than this (two missed turns) fires TradewindLedgerCheck. */
export const LEDGER_CHECK_LATE_MS = 2 * LEDGER_CHECK_INTERVAL_MS + 60_000;

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
  const startedAtMs = deps.clock.now().getTime();
  app.conditions.add({
    name: 'TradewindLedgerCheck',
    summary: 'the newest ledger check found a violation, failed, or is overdue',
    check: async () => {
      const check = await latestLedgerCheck(deps.db);
      const lastMs = check ? Date.parse(check.startedAt) : startedAtMs;
      const late = deps.clock.now().getTime() - lastMs > LEDGER_CHECK_LATE_MS;
      if (check && check.status !== 'ok')
        return { firing: true, detail: { status: check.status, checkId: check.id } };
      return late
        ? { firing: true, detail: { lastRun: check?.startedAt ?? null } }
        : { firing: false };
    },
  });
  app.services.metrics.readers.ledgerCheck = async () => {
    const check = await latestLedgerCheck(deps.db);
    if (!check) return null;
    return {
      ok: check.status === 'ok',
      durationS: check.durationMs / 1000,
      endedAtS: (Date.parse(check.startedAt) + check.durationMs) / 1000,
    };
  };
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', () => worker.stop());
  return worker;
}
