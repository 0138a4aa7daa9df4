import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
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
}

/** The longest a due day waits for a sweep. */
export const MAX_SWEEP_MS = 60_000;

/**
 * The daily payout worker. Any number may run, in any number of processes: `payDue`
 * claims with SKIP LOCKED and each day has one row and one ledger reference. Tests call
 * `runOnce` with a manual clock; `start` sweeps on a timer.
 */
export class MiningPayoutWorker {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;
  private running = false;

  constructor(
    private readonly deps: PayoutWorkerDeps,
    private readonly sweepMs: number = MAX_SWEEP_MS,
  ) {}

  /** Pays what is due at the clock's now and tells the owners their balance changed. */
  async runOnce(): Promise<PayoutResult> {
    const result = await payDue(this.deps.db, this.deps.ledger, this.deps.clock.now());
    for (const userId of result.users) this.deps.hub.publishToUser(userId, { type: 'balance.changed' });
    publishMessages(this.deps.hub, result.messages);
    return result;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.deps.log?.info('mining payout worker started');
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
      .catch((error: unknown) => this.deps.log?.error({ err: error }, 'mining payouts: a round failed; retrying'))
      .finally(() => {
        this.current = null;
        if (this.running) this.timer = setTimeout(() => this.round(), this.sweepMs);
      });
  }
}
