import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { type Metrics, OVERDUE_AFTER_S } from '#platform/metrics.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { isTradable } from '../market/service.ts';
import { OrderBatcher } from './batcher.ts';
import { Settlement } from './settlement.ts';

export interface ContractsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  ledger: Ledger;
  hub: Hub;
  metrics?: Metrics;
}

/** The contracts module's moving parts in one process. */
export interface ContractsModule {
  batcher: OrderBatcher;
  /** In a process that runs the workers (ROLE `all` or `worker`): its timer hears of every order placed here. */
  settlement: Settlement | null;
}

/**
 * Builds the placement batcher and, when this process runs the workers, the settlement worker,
 * together: the batcher tells the worker of each order it places, so the worker wakes at that
 * order's delivery instead of at its next sweep.
 */
export function createContractsModule(
  deps: ContractsDeps,
  options: { worker: boolean; log: FastifyBaseLogger },
): ContractsModule {
  const settlement = options.worker
    ? new Settlement({
        db: deps.db,
        clock: deps.clock,
        ledger: deps.ledger,
        hub: deps.hub,
        log: options.log,
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      })
    : null;
  const { metrics } = deps;
  const batcher = new OrderBatcher({
    db: deps.db,
    clock: deps.clock,
    ledger: deps.ledger,
    hub: deps.hub,
    isTradable: (symbol) => isTradable(symbol, deps.config.market),
    log: options.log,
    onPlaced: (deliverAt: Date) => {
      metrics?.ordersPlaced.inc();
      settlement?.notePlaced(deliverAt);
    },
  });
  return { batcher, settlement };
}

/**
 * The settlement worker with the app: it starts when the app is ready (catching up on
 * whatever came due while no worker ran) and stops, finishing the batch in progress, when the
 * app closes (before the database does).
 */
/** The settlement lag p99 (s) over a minute that fires TradewindSettlementLag. */
export const SETTLEMENT_LAG_ALERT_S = 5;

export function registerSettlementWorker(app: FastifyInstance, settlement: Settlement): void {
  const { metrics, config } = app.services;
  metrics.readers.ordersOverdue = async () => (await settlement.overdue(OVERDUE_AFTER_S)).count;
  // A settling process that has fallen this far behind cannot do its job: an orchestrator
  // restarts it or an operator looks (docs/operations.md#settlement-lag).
  app.conditions.add({
    name: 'TradewindSettlementLag',
    summary: `the p99 settlement lag of the last minute is over ${SETTLEMENT_LAG_ALERT_S} s`,
    check: async () => {
      const p99 = settlement.recentLagP99();
      return p99 !== null && p99 > SETTLEMENT_LAG_ALERT_S
        ? { firing: true, detail: { p99S: p99 } }
        : { firing: false };
    },
  });
  app.conditions.add({
    name: 'TradewindOrdersOverdue',
    summary: `open orders are more than ${OVERDUE_AFTER_S} s past their delivery`,
    check: async () => {
      const { count, oldestS } = await settlement.overdue(OVERDUE_AFTER_S);
      return count > 0
        ? { firing: true, detail: { overdue: count, oldestS: Math.round(oldestS) } }
        : { firing: false };
    },
  });
  app.readiness.add({
    name: 'settlement',
    run: async () => {
      const { oldestS } = await settlement.overdue(OVERDUE_AFTER_S);
      if (oldestS > config.readyMaxSettlementLagS)
        throw new Error(`the oldest open order is ${Math.round(oldestS)} s past delivery`);
    },
  });
  app.addHook('onReady', async () => {
    void settlement.start();
  });
  app.addHook('onClose', () => settlement.stop());
}
