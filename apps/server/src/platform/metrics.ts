// What an operator's Prometheus scrapes (issue 31; docs/operations.md#metrics). One registry per
// app (tests build many in one process); the process's own metrics (CPU, memory, event loop,
// heap) once per process, appended to every scrape.
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { ERROR_CODES } from '@tradewind/contract/errors';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from './db.ts';
import { translate } from './i18n.ts';

/** What the scrape reads from the running parts, each set by the part that has it. */
export interface MetricReaders {
  wsConnections?: () => number;
  wsSubscriptions?: () => number;
  eventBusConnected?: () => boolean;
  dbPools?: () => PoolStats[];
  /** The latest accepted update of each instrument and source, with its age in seconds (the recorder). */
  tickAges?: () => { instrument: string; source: string; ageS: number }[];
  /**
   * While this process records: per source, the age of its freshest instrument's quote, or
   * since recording began when it has accepted none (so a source dead from the start shows).
   */
  sourceAges?: () => Map<string, number>;
  /** Open contract orders past their delivery by more than OVERDUE_AFTER_S (the settling process). */
  ordersOverdue?: () => Promise<number>;
  ready?: () => Promise<boolean>;
  /** The newest stored ledger check (the processes that run it on a schedule). */
  ledgerCheck?: () => Promise<{ ok: boolean; durationS: number; endedAtS: number } | null>;
}

/** An order still open this long after its delivery counts as overdue (alerts and readiness). */
export const OVERDUE_AFTER_S = 10;

/** Counts in one-second slots over a sliding minute (the in-process 5xx condition). */
export class MinuteWindow {
  private readonly slots = new Map<number, { total: number; hits: number }>();

  add(hit: boolean, nowMs: number = Date.now()): void {
    const second = Math.floor(nowMs / 1000);
    let slot = this.slots.get(second);
    if (!slot) {
      this.slots.set(second, (slot = { total: 0, hits: 0 }));
      for (const key of this.slots.keys()) if (key <= second - 60) this.slots.delete(key);
    }
    slot.total += 1;
    if (hit) slot.hits += 1;
  }

  /** Totals over the last 60 s. */
  sum(nowMs: number = Date.now()): { total: number; hits: number } {
    const oldest = Math.floor(nowMs / 1000) - 59;
    let total = 0;
    let hits = 0;
    for (const [second, slot] of this.slots)
      if (second >= oldest) {
        total += slot.total;
        hits += slot.hits;
      }
    return { total, hits };
  }
}

export class Metrics {
  readonly registry = new Registry();
  readonly readers: MetricReaders = {};
  /** Requests of the last minute, and how many answered 5xx. */
  readonly recentRequests = new MinuteWindow();

  readonly httpDuration = new Histogram({
    name: 'tradewind_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly ordersPlaced = new Counter({
    name: 'tradewind_orders_placed_total',
    help: 'Contract orders placed by this process',
    registers: [this.registry],
  });
  readonly ordersSettled = new Counter({
    name: 'tradewind_orders_settled_total',
    help: 'Contract orders settled by this process, by outcome (win, loss, tie)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly ordersVoided = new Counter({
    name: 'tradewind_orders_voided_total',
    help: 'Contract orders voided and refunded by this process (no fresh price at delivery)',
    registers: [this.registry],
  });
  readonly settlementLag = new Histogram({
    name: 'tradewind_settlement_lag_seconds',
    help: "From an order's delivery to its result being written",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly quarantined = new Counter({
    name: 'tradewind_quarantined_updates_total',
    help: 'Price updates kept out of the index: too far from the other sources or from their own last minute',
    labelNames: ['instrument', 'source'] as const,
    registers: [this.registry],
  });
  readonly wsMessagesSent = new Counter({
    name: 'tradewind_ws_messages_sent_total',
    help: "Messages sent to this process's WebSockets",
    registers: [this.registry],
  });
  readonly eventBusLag = new Histogram({
    name: 'tradewind_event_bus_delivery_lag_seconds',
    help: "From another process's send to this process's receipt (probes every 5 s)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly jobRounds = new Counter({
    name: 'tradewind_job_rounds_total',
    // `task`, not `job`: Prometheus keeps `job` for the scrape target (it would rename ours).
    help: 'Rounds of the background jobs, by task (deposits, mining, loans, ieo) and result',
    labelNames: ['task', 'result'] as const,
    registers: [this.registry],
  });
  readonly jobLastSuccess = new Gauge({
    name: 'tradewind_job_last_success_timestamp_seconds',
    help: "When each background job's last round succeeded (Unix time), by task",
    labelNames: ['task'] as const,
    registers: [this.registry],
  });
  readonly readinessChanges = new Counter({
    name: 'tradewind_readiness_changes_total',
    help: 'How often /api/ready changed its answer',
    registers: [this.registry],
  });

  constructor() {
    const readers = this.readers;
    const registers = [this.registry];
    /** A gauge of one value read at scrape time; left out while its reader is absent or has none. */
    const readGauge = (
      name: string,
      help: string,
      read: () => number | undefined | Promise<number | undefined>,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const value = await read();
          if (value === undefined) this.remove();
          else this.set(value);
        },
      });
    readGauge('tradewind_ws_connections', 'Open WebSockets on this process', () =>
      readers.wsConnections?.(),
    );
    readGauge(
      'tradewind_ws_subscriptions',
      "Channel subscriptions held by this process's WebSockets",
      () => readers.wsSubscriptions?.(),
    );
    readGauge(
      'tradewind_event_bus_connected',
      '1 while the event bus between processes (NATS or LISTEN/NOTIFY) is connected',
      () => (readers.eventBusConnected ? Number(readers.eventBusConnected()) : undefined),
    );
    const pool = (name: string, help: string, pick: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'] as const,
        registers,
        collect() {
          this.reset();
          for (const stats of readers.dbPools?.() ?? [])
            this.set({ pool: stats.pool }, pick(stats));
        },
      });
    pool('tradewind_db_pool_in_use', 'Database connections in use, by pool', (s) => s.inUse);
    pool(
      'tradewind_db_pool_waiting',
      'Queries waiting for a database connection, by pool',
      (s) => s.waiting,
    );
    pool('tradewind_db_pool_max', 'The most database connections, by pool', (s) => s.max);
    new Gauge({
      name: 'tradewind_tick_age_seconds',
      help: 'Age of the latest accepted price update, by instrument and source (the recording process)',
      labelNames: ['instrument', 'source'] as const,
      registers,
      collect() {
        this.reset();
        for (const { instrument, source, ageS } of readers.tickAges?.() ?? [])
          this.set({ instrument, source }, ageS);
      },
    });
    new Gauge({
      name: 'tradewind_source_age_seconds',
      help: "Per price source, the age of its freshest instrument's latest accepted quote (the recording process only)",
      labelNames: ['source'] as const,
      registers,
      collect() {
        this.reset();
        for (const [source, ageS] of readers.sourceAges?.() ?? []) this.set({ source }, ageS);
      },
    });
    readGauge(
      'tradewind_orders_overdue',
      `Open contract orders more than ${OVERDUE_AFTER_S} s past their delivery (the settling process)`,
      () => readers.ordersOverdue?.(),
    );
    // The three ledger gauges read the newest stored check once per scrape.
    let ledger: {
      at: number;
      check: ReturnType<NonNullable<MetricReaders['ledgerCheck']>>;
    } | null = null;
    const ledgerCheck = async () => {
      if (!readers.ledgerCheck) return null;
      if (!ledger || Date.now() - ledger.at > 1_000)
        ledger = { at: Date.now(), check: readers.ledgerCheck() };
      return ledger.check;
    };
    const ledgerGauge = (
      name: string,
      help: string,
      pick: (check: { ok: boolean; durationS: number; endedAtS: number }) => number,
    ) =>
      readGauge(name, help, async () => {
        const check = await ledgerCheck();
        return check ? pick(check) : undefined;
      });
    ledgerGauge(
      'tradewind_ledger_check_ok',
      '1 when the newest ledger check found the books consistent, 0 when it found a violation or failed',
      (check) => (check.ok ? 1 : 0),
    );
    ledgerGauge(
      'tradewind_ledger_check_duration_seconds',
      'How long the newest ledger check took',
      (check) => check.durationS,
    );
    ledgerGauge(
      'tradewind_ledger_check_last_run_timestamp_seconds',
      'When the newest ledger check ended (Unix time)',
      (check) => check.endedAtS,
    );
    readGauge('tradewind_ready', '1 while /api/ready would answer 200', async () =>
      readers.ready ? Number(await readers.ready()) : undefined,
    );
  }

  /** One round of a background job (deposits, mining, loans, ieo) ended, well or not. */
  jobRound(task: string, ok: boolean): void {
    this.jobRounds.inc({ task, result: ok ? 'ok' : 'failed' });
    if (ok) this.jobLastSuccess.set({ task }, Date.now() / 1000);
  }

  /** Prometheus' text format: this app's metrics, then the process's. */
  async text(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processRegistry().metrics()}`;
  }
}

let processMetrics: Registry | undefined;
/** CPU, memory, event-loop lag, heap and handles: one set per process, however many apps it builds. */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Times every request by its route pattern (never the raw URL: one series per route, not per
 * id), and `GET /metrics` on the public port: only with `Authorization: Bearer METRICS_TOKEN`,
 * a 404 when no token is set (the ops port, `startOpsServer`, serves it without one).
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  token: string | undefined,
): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    if (request.routeOptions.url !== '/api/ready')
      metrics.recentRequests.add(reply.statusCode >= 500);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token)
      return reply.status(404).send({
        code: ERROR_CODES.NOT_FOUND,
        message: translate(request.lang, 'errors.NOT_FOUND'),
        data: null,
      });
    if (!bearerMatches(request.headers.authorization, token))
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({
          code: ERROR_CODES.UNAUTHORIZED,
          message: translate(request.lang, 'errors.UNAUTHORIZED'),
          data: null,
        });
    return reply
      .header('cache-control', 'no-store')
      .type(METRICS_CONTENT_TYPE)
      .send(await metrics.text());
  });
}

/**
 * The ops port: `/api/health`, `/api/ready` (answered by the app's own routes, in-process) and
 * `/metrics` with no token. A worker (`ROLE=worker`, WORKER_PORT) serves nothing else; an API
 * node serves it on METRICS_PORT when set. Bind it where only the monitoring reaches.
 */
export async function startOpsServer(
  app: FastifyInstance,
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/metrics') {
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
        res.end(await metrics.text());
        return;
      }
      if (req.method === 'GET' && (path === '/api/health' || path === '/api/ready')) {
        const reply = await app.inject({
          method: 'GET',
          url: path,
          headers: { 'accept-language': req.headers['accept-language'] ?? 'en' },
        });
        res.writeHead(reply.statusCode, {
          'content-type': reply.headers['content-type'] ?? 'application/json',
          'cache-control': 'no-store',
        });
        res.end(reply.body);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: ERROR_CODES.NOT_FOUND, message: 'Not found', data: null }));
    })().catch((error: unknown) => {
      app.log.error({ err: error }, 'ops port: a request failed');
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
