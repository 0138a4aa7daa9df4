import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { PRUNE_BATCH, pruneExpiredKeys } from './idempotency.ts';
import { Sweeper } from './sweeper.ts';

/** A prune round a minute: an expired key is gone within about a minute of expiring. */
export const KEY_PRUNE_INTERVAL_MS = 60_000;
/** Statements per round: a backlog (after a long stop) is worked off 50,000 keys a minute, never in one long statement. */
const KEY_PRUNE_STATEMENTS_PER_ROUND = 50;
/** The embedded engine's upkeep: a VACUUM and a CHECKPOINT every ten minutes. */
export const EMBEDDED_UPKEEP_INTERVAL_MS = 10 * 60_000;

type Log = Pick<FastifyBaseLogger, 'error' | 'info'>;

/** Deletes expired Idempotency-Keys (platform/idempotency.ts), a batch per statement. */
export class IdempotencyKeyPruner {
  private readonly sweeper: Sweeper;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log?: Log },
    private readonly options: {
      intervalMs?: number;
      batch?: number;
      statementsPerRound?: number;
    } = {},
  ) {
    this.sweeper = new Sweeper(
      'idempotency key prune',
      () => this.runOnce(),
      options.intervalMs ?? KEY_PRUNE_INTERVAL_MS,
      deps.log,
    );
  }

  /** One round: batches until one comes back short or the round's limit is reached. Returns how many keys went. */
  async runOnce(): Promise<number> {
    const batch = this.options.batch ?? PRUNE_BATCH;
    let total = 0;
    for (let i = 0; i < (this.options.statementsPerRound ?? KEY_PRUNE_STATEMENTS_PER_ROUND); i++) {
      const deleted = await pruneExpiredKeys(this.deps.db, this.deps.clock.now(), batch);
      total += deleted;
      if (deleted < batch) break;
    }
    if (total > 0) this.deps.log?.info({ deleted: total }, 'expired idempotency keys pruned');
    return total;
  }

  start(): void {
    this.sweeper.start();
  }

  stop(): Promise<void> {
    return this.sweeper.stop();
  }
}

/**
 * PGlite runs PostgreSQL as a single backend, without the background processes a server
 * has: nothing vacuums and nothing checkpoints. So rows that a retention prune deletes
 * (ticks, keys) leave space that no insert ever reuses, and the WAL grows until the process
 * stops. This does their work: VACUUM makes the deleted rows' space reusable (it does not
 * shrink the files, it stops their growth), and CHECKPOINT lets the WAL's old segments be
 * recycled. On PostgreSQL autovacuum and the checkpointer do both, and this never runs.
 */
export class EmbeddedUpkeep {
  private readonly sweeper: Sweeper;

  constructor(
    private readonly deps: { db: Db; log?: Log },
    intervalMs: number = EMBEDDED_UPKEEP_INTERVAL_MS,
  ) {
    this.sweeper = new Sweeper(
      'embedded database upkeep',
      () => this.runOnce(),
      intervalMs,
      deps.log,
    );
  }

  async runOnce(): Promise<void> {
    await this.deps.db.execute(sql`vacuum`);
    await this.deps.db.execute(sql`checkpoint`);
  }

  start(): void {
    this.sweeper.start();
  }

  stop(): Promise<void> {
    return this.sweeper.stop();
  }
}

/** The housekeeping workers of this process (ROLE `all` or `worker`): the key prune, and the embedded engine's upkeep on PGlite. */
export function registerHousekeepingWorker(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Pick<Config, 'databaseUrl'> },
): IdempotencyKeyPruner {
  const pruner = new IdempotencyKeyPruner({ db: deps.db, clock: deps.clock, log: app.log });
  const upkeep =
    deps.config.databaseUrl === undefined
      ? new EmbeddedUpkeep({ db: deps.db, log: app.log })
      : null;
  app.addHook('onReady', async () => {
    pruner.start();
    upkeep?.start();
  });
  app.addHook('onClose', async () => {
    await pruner.stop();
    await upkeep?.stop();
  });
  return pruner;
}
