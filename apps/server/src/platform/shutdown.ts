// How a node leaves a load balancer's rotation without losing a request (issue 30). On
// SIGTERM it says it is no longer ready at once, keeps serving for DRAIN_MS while the load
// balancer moves traffic away, and only then stops accepting (main.ts).
import { ERROR_CODES } from '@tradewind/contract/errors';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from './db.ts';
import { translate } from './i18n.ts';

/** A check that must pass for this node to take traffic; rejects (or outlasts its timeout) when it fails. */
export interface ReadinessCheck {
  name: string;
  run: () => Promise<unknown>;
}

/** A probe gets its answer within this, even from a database that no longer answers. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/** The name `/api/ready` gives a node that is shutting down. */
export const DRAINING = 'draining';

/** Whether this node takes traffic: no draining, every check passing. */
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private drainingSince: number | undefined;
  /** The last answer given, to tell `onChange` when it turns (undefined: none given yet). */
  private lastFailing: string | undefined;

  /** `onChange` hears each change of the answer after the first (metrics, one log line each way). */
  constructor(private readonly onChange?: (ready: boolean, failing: string[]) => void) {}

  add(check: ReadinessCheck): void {
    if (this.checks.some((c) => c.name === check.name))
      throw new Error(`readiness: a check named ${check.name} exists already`);
    this.checks.push(check);
  }

  /** From now on the node is not ready, whatever its checks say; there is no way back. */
  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** The names of what keeps this node from taking traffic now: none when it is ready. */
  async failing(): Promise<string[]> {
    // A node on its way out is not asked anything else: its answer is no either way.
    if (this.draining) return [DRAINING];
    const results = await Promise.all(
      this.checks.map(async (check) => ((await passes(check)) ? null : check.name)),
    );
    const failing = results.filter((name) => name !== null);
    const key = failing.join(',');
    if (this.lastFailing !== undefined && this.lastFailing !== key && !this.draining)
      this.onChange?.(failing.length === 0, failing);
    this.lastFailing = key;
    return failing;
  }
}

async function passes(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.run().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Every migration this code knows is applied (a node started ahead of `npm run migrate` is not ready). */
export function migrationsCheck(database: Pick<Database, 'pendingMigrations'>): ReadinessCheck {
  return {
    name: 'migrations',
    run: async () => {
      const pending = await database.pendingMigrations();
      if (pending.length > 0) throw new Error(`pending: ${pending.join(', ')}`);
    },
  };
}

/** The database answers a query (a pool that is full waits, and fails by the timeout). */
export function databaseCheck(db: Db): ReadinessCheck {
  return { name: 'database', run: () => db.execute(sql`select 1`) };
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

/**
 * `GET /api/ready`, the load balancer's readiness probe: 200 `{ready: true}`, or 503 with the
 * names of what fails (`draining`, `database`, …). `/api/health` stays the liveness probe: a
 * draining node is alive. While draining, every reply also says `Connection: close`, so a
 * client's keep-alive connection ends after the request it carries instead of idling into the
 * moment the listener closes, where a request sent on it would be reset.
 */
export function registerReadiness(app: FastifyInstance, readiness: Readiness): void {
  app.decorate('readiness', readiness);
  app.addHook('onRequest', (_request, reply, done) => {
    if (readiness.draining) reply.header('connection', 'close');
    done();
  });
  const schema = {
    summary: 'Readiness: 200 while this node takes traffic, 503 naming what fails',
    tags: ['system'],
  };
  app.get('/api/ready', { schema }, async (request, reply) => {
    const failing = await readiness.failing();
    reply.header('cache-control', 'no-store');
    if (failing.length === 0)
      return { code: 0, message: translate(request.lang, 'ok'), data: { ready: true } };
    return reply.status(503).send({
      code: ERROR_CODES.UNAVAILABLE,
      message: translate(request.lang, 'errors.UNAVAILABLE'),
      data: { ready: false, failing },
    });
  });
}

/**
 * The wait between "not ready" and closing the listener. A second signal cuts it short: the
 * operator at a terminal who presses Ctrl-C twice wants the process gone now.
 */
export function drainWait(ms: number): { done: Promise<void>; cut: () => void } {
  let cut = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    cut = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, cut };
}
