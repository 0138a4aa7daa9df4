import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
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
      })
    : null;
  const batcher = new OrderBatcher({
    db: deps.db,
    clock: deps.clock,
    ledger: deps.ledger,
    hub: deps.hub,
    isTradable: (symbol) => isTradable(symbol, deps.config.market, deps.clock.now()),
    log: options.log,
    ...(settlement ? { onPlaced: (deliverAt: Date) => settlement.notePlaced(deliverAt) } : {}),
  });
  return { batcher, settlement };
}

/**
 * The settlement worker with the app: it starts when the app is ready (catching up on
 * whatever came due while no worker ran) and stops, finishing the batch in progress, when the
 * app closes (before the database does).
 */
export function registerSettlementWorker(app: FastifyInstance, settlement: Settlement): void {
  app.addHook('onReady', async () => {
    void settlement.start();
  });
  app.addHook('onClose', () => settlement.stop());
}
