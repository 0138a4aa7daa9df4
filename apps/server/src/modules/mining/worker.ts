import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { Sweeper } from '#platform/sweeper.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { publishMessages } from '../messages/service.ts';
import { type PayoutResult, payDue } from './service.ts';

export interface PayoutWorkerDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  hub: Hub;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  /** Hears how each timed round ended (metrics). */
  onRound?: (ok: boolean) => void;
}

/** The longest a due day waits for a sweep. */
export const MAX_SWEEP_MS = 60_000;

/**
 * The daily payout worker. Any number may run, in any number of processes: `payDue`
 * claims with SKIP LOCKED and each day has one row and one ledger reference. Tests call
 * `runOnce` with a manual clock; `start` sweeps on a timer.
 */
export class MiningPayoutWorker {
  private readonly sweeper: Sweeper;

  constructor(
    private readonly deps: PayoutWorkerDeps,
    sweepMs: number = MAX_SWEEP_MS,
  ) {
    this.sweeper = new Sweeper(
      'mining payout worker',
      () => this.runOnce(),
      sweepMs,
      deps.log,
      deps.onRound,
    );
  }

  /** Pays what is due at the clock's now and tells the owners their balance changed. */
  async runOnce(): Promise<PayoutResult> {
    const result = await payDue(this.deps.db, this.deps.ledger, this.deps.clock.now());
    for (const userId of result.users)
      this.deps.hub.publishToUser(userId, { type: 'balance.changed' });
    publishMessages(this.deps.hub, result.messages);
    return result;
  }

  start(): void {
    this.sweeper.start();
  }

  stop(): Promise<void> {
    return this.sweeper.stop();
  }
}
