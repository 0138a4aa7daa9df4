import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { Sweeper } from '#platform/sweeper.ts';
import type { Hub } from '#platform/ws.ts';
import { publishMessages } from '../messages/service.ts';
import { type AccrualResult, accrueDue } from './service.ts';

export interface LoanAccrualWorkerDeps {
  db: Db;
  clock: Clock;
  hub: Hub;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  /** Hears how each timed round ended (metrics). */
  onRound?: (ok: boolean) => void;
}

/** The longest a due overdue day waits for a sweep. */
export const LOAN_SWEEP_MS = 60_000;

/**
 * The daily overdue accrual. Any number may run, in any number of processes: `accrueDue`
 * claims with SKIP LOCKED and each overdue day has one row. Tests call `runOnce` with a
 * manual clock; `start` sweeps on a timer.
 */
export class LoanAccrualWorker {
  private readonly sweeper: Sweeper;

  constructor(
    private readonly deps: LoanAccrualWorkerDeps,
    sweepMs: number = LOAN_SWEEP_MS,
  ) {
    this.sweeper = new Sweeper(
      'loan accrual worker',
      () => this.runOnce(),
      sweepMs,
      deps.log,
      deps.onRound,
    );
  }

  async runOnce(): Promise<AccrualResult> {
    const result = await accrueDue(this.deps.db, this.deps.clock.now());
    publishMessages(this.deps.hub, result.created);
    return result;
  }

  start(): void {
    this.sweeper.start();
  }

  stop(): Promise<void> {
    return this.sweeper.stop();
  }
}
