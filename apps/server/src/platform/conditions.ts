// The alert conditions of deploy/prometheus/alerts.yml, watched in the process too: each logs
// one warning when it starts and one line when it clears (docs/operations.md#alerts), so an
// install without Prometheus still has them in its logs, and an operator reading the logs of
// an incident sees when it began and ended.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** How often each process evaluates its conditions. */
export const CONDITION_INTERVAL_MS = 5_000;

/** What a check finds: firing (with what to log about it) or not. */
export type ConditionState = { firing: false } | { firing: true; detail: Record<string, unknown> };

export interface Condition {
  /** The alert's name in alerts.yml, e.g. `TradewindFeedStale`; with a key, one per key. */
  name: string;
  /** What it means, in the warning line. */
  summary: string;
  /**
   * Evaluated every interval. A map evaluates one condition per key (a source, an instrument),
   * each starting and clearing on its own.
   */
  check: () => Promise<ConditionState | Map<string, ConditionState>>;
}

/** Evaluates conditions on a timer and logs their transitions. */
export class Conditions {
  private readonly conditions: Condition[] = [];
  /** The keys firing now, by condition name (`''` for a condition without keys). */
  private readonly firing = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;

  constructor(private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>) {}

  add(condition: Condition): void {
    this.conditions.push(condition);
  }

  /** The names (with keys) firing now: `TradewindFeedStale{source=binance}`. */
  get active(): string[] {
    const names: string[] = [];
    for (const [name, keys] of this.firing)
      for (const key of keys) names.push(key === '' ? name : `${name}{${key}}`);
    return names.sort();
  }

  /** The evaluations in order: one started by the timer and one asked for meanwhile never interleave. */
  private chain: Promise<void> = Promise.resolve();

  /** Evaluates every condition once (after any evaluation in progress) and logs what started and what cleared. */
  evaluate(): Promise<void> {
    const run = this.chain.then(() => this.evaluateOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async evaluateOnce(): Promise<void> {
    for (const condition of this.conditions) {
      let result: ConditionState | Map<string, ConditionState>;
      try {
        result = await condition.check();
      } catch (error) {
        // A check that cannot run says nothing either way: what fires stays firing.
        this.log.error({ err: error, condition: condition.name }, 'condition check failed');
        continue;
      }
      const states = result instanceof Map ? result : new Map([['', result]]);
      const firing = this.firing.get(condition.name) ?? new Set<string>();
      this.firing.set(condition.name, firing);
      for (const [key, state] of states) {
        const label = key === '' ? {} : { key };
        if (state.firing && !firing.has(key)) {
          firing.add(key);
          this.log.warn(
            { condition: condition.name, ...label, ...state.detail },
            `alert started: ${condition.name}${key ? ` (${key})` : ''}: ${condition.summary}`,
          );
        } else if (!state.firing && firing.has(key)) {
          firing.delete(key);
          this.log.info(
            { condition: condition.name, ...label },
            `alert cleared: ${condition.name}${key ? ` (${key})` : ''}`,
          );
        }
      }
      // A key no longer reported (its source was removed) has cleared.
      for (const key of [...firing])
        if (!states.has(key)) {
          firing.delete(key);
          this.log.info(
            { condition: condition.name, key },
            `alert cleared: ${condition.name} (${key})`,
          );
        }
    }
  }

  start(intervalMs: number = CONDITION_INTERVAL_MS): void {
    if (this.timer) return;
    const run = () => {
      this.current = this.evaluate().finally(() => {
        this.current = null;
      });
    };
    this.timer = setInterval(() => {
      if (!this.current) run();
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.current;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    conditions: Conditions;
  }
}

/** The app's conditions, evaluated while it runs (each module adds those of its own work). */
export function registerConditions(app: FastifyInstance, intervalMs?: number): Conditions {
  const conditions = new Conditions(app.log);
  app.decorate('conditions', conditions);
  app.addHook('onReady', async () => conditions.start(intervalMs));
  app.addHook('onClose', () => conditions.stop());
  return conditions;
}

/** 5xx share of the last minute's requests that fires TradewindHttp5xx (with at least MIN_REQUESTS). */
export const HTTP_5XX_SHARE = 0.05;
const MIN_REQUESTS = 20;
/** Readiness changes within READINESS_WINDOW_MS that make it flapping. */
export const READINESS_FLAPS = 4;
export const READINESS_WINDOW_MS = 10 * 60_000;
/** Checks in a row with queries waiting for a connection that make the pool saturated. */
export const POOL_WAITING_CHECKS = 3;

/** The conditions of every process: its HTTP errors, its readiness, its pools, its event bus. */
export function watchPlatform(
  conditions: Conditions,
  parts: {
    recentRequests: { sum: () => { total: number; hits: number } };
    /** When readiness changed lately (ms). */
    readinessChanges: () => readonly number[];
    poolStats?: () => { pool: string; inUse: number; waiting: number; max: number }[];
    eventBusConnected: () => boolean;
  },
): void {
  conditions.add({
    name: 'TradewindHttp5xx',
    summary: `more than ${HTTP_5XX_SHARE * 100} % of the last minute's requests failed with 5xx`,
    check: async () => {
      const { total, hits } = parts.recentRequests.sum();
      return total >= MIN_REQUESTS && hits / total > HTTP_5XX_SHARE
        ? { firing: true, detail: { requests: total, errors: hits } }
        : { firing: false };
    },
  });
  conditions.add({
    name: 'TradewindReadinessFlapping',
    summary: `/api/ready changed its answer ${READINESS_FLAPS} times or more in ${READINESS_WINDOW_MS / 60_000} minutes`,
    check: async () => {
      const since = Date.now() - READINESS_WINDOW_MS;
      const changes = parts.readinessChanges().filter((at) => at >= since).length;
      return changes >= READINESS_FLAPS ? { firing: true, detail: { changes } } : { firing: false };
    },
  });
  const waitingFor = new Map<string, number>();
  conditions.add({
    name: 'TradewindDbPoolSaturated',
    summary: 'queries have been waiting for a database connection for 15 s',
    check: async () => {
      const states = new Map<string, ConditionState>();
      for (const stats of parts.poolStats?.() ?? []) {
        const checks = stats.waiting > 0 ? (waitingFor.get(stats.pool) ?? 0) + 1 : 0;
        waitingFor.set(stats.pool, checks);
        states.set(
          `pool=${stats.pool}`,
          checks >= POOL_WAITING_CHECKS
            ? {
                firing: true,
                detail: { inUse: stats.inUse, waiting: stats.waiting, max: stats.max },
              }
            : { firing: false },
        );
      }
      return states;
    },
  });
  let downChecks = 0;
  conditions.add({
    name: 'TradewindEventBusDown',
    summary: 'the event bus between processes is disconnected: other nodes miss live events',
    check: async () => {
      downChecks = parts.eventBusConnected() ? 0 : downChecks + 1;
      return downChecks >= 2 ? { firing: true, detail: {} } : { firing: false };
    },
  });
}
