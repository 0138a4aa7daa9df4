import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerCheck, LedgerCheckStatus } from '@tradewind/contract/dashboard';
import { desc, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import { type Db, type Executor, queryRows } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type Obligation, checkLedger, type Violation } from '../ledger/invariants.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { ledgerChecks } from './tables.ts';

/**
 * The ledger's invariants (the same `checkLedger` as `npm run check:ledger` and every test
 * file), run from the server: by a worker on a schedule and by an operator on demand.
 *
 * Its cost is bounded: one check at a time across every process (an advisory lock),
 * operators can start one at most once a minute between them, the schedule runs it every 15 minutes,
 * each statement of it has a time limit (a check that runs out is recorded as an error,
 * shown red), and it runs on one core (no parallel workers), pausing between its statements.
 * It reads one snapshot (repeatable read), so money moving while it runs can never look like
 * a broken invariant.
 */

export const LEDGER_CHECK_INTERVAL_MS = 15 * 60_000;
export const LEDGER_CHECK_COOLDOWN_MS = 60_000;
export const LEDGER_CHECK_STATEMENT_TIMEOUT_MS = 60_000;
/**
 * After each of its statements (an id range of the ledger, see checkLedger) the check waits
 * this many times as long as the statement took: on a big ledger it uses at most a third of
 * one core instead of all of it for seconds, which trading's requests share.
 */
export const LEDGER_CHECK_PAUSE_FACTOR = 2;
/** At most this many violations are stored (checkLedger already keeps 20 per rule). */
const MAX_STORED_VIOLATIONS = 100;
/** pg_advisory lock key: "ledger check" (any constant no other module uses). */
const LOCK_KEY = 0x1ed6e4c4;

export interface LedgerCheckDeps {
  db: Db;
  clock: Clock;
  /** Every module's locked funds (src/obligations.ts, handed in by app.ts). */
  obligations: readonly Obligation[];
}

function view(row: typeof ledgerChecks.$inferSelect): LedgerCheck {
  return {
    id: String(row.id),
    status: row.status as LedgerCheckStatus,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    trigger: row.trigger,
    violations: row.violations,
  };
}

export async function latestLedgerCheck(db: Executor): Promise<LedgerCheck | null> {
  const [row] = await db.select().from(ledgerChecks).orderBy(desc(ledgerChecks.id)).limit(1);
  return row ? view(row) : null;
}

/** The newest check an operator asked for (a backward scan from the newest row: checks are few). */
const lastOperatorRun = (db: Executor) =>
  db
    .select({ startedAt: ledgerChecks.startedAt })
    .from(ledgerChecks)
    .where(ne(ledgerChecks.trigger, 'schedule'))
    .orderBy(desc(ledgerChecks.id))
    .limit(1);

/**
 * Runs the check and stores its result. Returns null when another check holds the lock
 * (the schedule skips its turn). Raises LEDGER_CHECK_BUSY for an operator when a check is
 * running or ran less than a minute ago.
 */
export async function runLedgerCheck(
  deps: LedgerCheckDeps,
  operator: OperatorContext | null,
): Promise<LedgerCheck | null> {
  const startedAt = deps.clock.now();
  if (operator) {
    // Operators' runs, whoever asked, at most once a minute (the schedule's own runs aside: it keeps its pace).
    const [last] = await lastOperatorRun(deps.db);
    if (last && startedAt.getTime() - last.startedAt.getTime() < LEDGER_CHECK_COOLDOWN_MS)
      throw new AppError('LEDGER_CHECK_BUSY', {}, 429);
  }
  const started = performance.now();
  let status: LedgerCheckStatus;
  let violations: Violation[];
  try {
    const result = await deps.db.transaction(
      async (tx) => {
        const [lock] = await queryRows<{ locked: boolean }>(
          tx,
          sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`,
        );
        if (!lock?.locked) return null;
        await tx.execute(
          sql.raw(`set local statement_timeout = ${LEDGER_CHECK_STATEMENT_TIMEOUT_MS}`),
        );
        await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
        return checkLedger(tx, deps.obligations, {
          pause: (ms) => sleep(ms * LEDGER_CHECK_PAUSE_FACTOR),
        });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    if (result === null) {
      if (operator) throw new AppError('LEDGER_CHECK_BUSY', {}, 429);
      return null;
    }
    violations = result.slice(0, MAX_STORED_VIOLATIONS);
    status = violations.length === 0 ? 'ok' : 'violations';
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The check itself failed (a timeout, a lost connection): not a clean bill of health.
    status = 'error';
    violations = [
      {
        rule: 'the check did not finish',
        detail: error instanceof Error ? error.message : String(error),
      },
    ];
  }
  const durationMs = Math.round(performance.now() - started);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(ledgerChecks)
      .values({
        startedAt,
        durationMs,
        status,
        trigger: operator ? `operator:${operator.username}` : 'schedule',
        violations,
      })
      .returning();
    if (!row) throw new Error('ledger check insert returned no row');
    if (operator) {
      await audit(tx, deps.clock.now(), operator, {
        action: 'ledger.check',
        targetType: 'ledger_check',
        targetId: row.id,
        after: { status, violations: violations.length },
      });
    }
    return view(row);
  });
}

/** Runs the check on a schedule (workers only): once soon after start, then every interval. */
export class LedgerCheckWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly deps: LedgerCheckDeps & { log?: Pick<FastifyBaseLogger, 'error' | 'warn'> },
    private readonly intervalMs = LEDGER_CHECK_INTERVAL_MS,
  ) {}

  start(): void {
    this.schedule(10_000);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = null;
        if (this.timer) this.schedule(this.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  async tick(): Promise<void> {
    try {
      const result = await runLedgerCheck(this.deps, null);
      if (result && result.status !== 'ok')
        this.deps.log?.error({ violations: result.violations }, 'ledger check: invariants broken');
    } catch (error) {
      this.deps.log?.error({ err: error }, 'ledger check: could not run');
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
