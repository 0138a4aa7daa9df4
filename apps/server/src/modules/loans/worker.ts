import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import type { Hub } from '#platform/ws.ts';
import { publishMessages } from '../messages/service.ts';
import { type AccrualResult, accrueDue } from './service.ts';

export interface LoanAccrualWorkerDeps {
  db: Db;
  clock: Clock;
  hub: Hub;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

/** The longest a due overdue day waits for a sweep. */
export const LOAN_SWEEP_MS = 60_000;

/**
 * The daily overdue accrual. Any number may run, in any number of processes: `accrueDue`
 * claims with SKIP LOCKED and each overdue day has one row. Tests call `runOnce` with a
 * manual clock; `start` sweeps on a timer.
 */
export class LoanAccrualWorker {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;
  private running = false;

  constructor(
    private readonly deps: LoanAccrualWorkerDeps,
    private readonly sweepMs: number = LOAN_SWEEP_MS,
  ) {}

  async runOnce(): Promise<AccrualResult> {
    const result = await accrueDue(this.deps.db, this.deps.clock.now());
    publishMessages(this.deps.hub, result.created);
    return result;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.deps.log?.info('loan accrual worker started');
    this.round();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  private round(): void {
    this.current = this.runOnce()
      .catch((error: unknown) => this.deps.log?.error({ err: error }, 'loan accrual: a round failed; retrying'))
      .finally(() => {
        this.current = null;
        if (this.running) this.timer = setTimeout(() => this.round(), this.sweepMs);
      });
  }
}
