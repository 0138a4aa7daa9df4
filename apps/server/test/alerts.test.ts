// Alerts as code (issue 31): deploy/prometheus/alerts.yml, its runbook in docs/operations.md,
// and the server's own watch of the same conditions. Each condition is caused here on a real
// app (a feed falls silent, settlement is held, a ledger row is broken, requests fail, readiness
// flaps, the pool fills, the event bus drops): the metric shows it, the log has one
// `alert started: <name>` warning however often it is evaluated, and one `alert cleared: <name>`
// line once the cause is gone. The Prometheus side is checked by promtool when it is installed
// (its unit tests, deploy/prometheus/alerts.test.yml), and against the live registry here.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { parse } from 'yaml';
import { cuttableProxy } from './nats-proxy.ts';
import { registerSettlementWorker } from '../src/modules/contracts/module.ts';
import { Settlement } from '../src/modules/contracts/settlement.ts';
import { runLedgerCheck } from '../src/modules/dashboard/ledger-check.ts';
import {
  LEDGER_CHECK_LATE_MS,
  registerLedgerCheckWorker,
} from '../src/modules/dashboard/routes.ts';
import { FEED_STALE_S, type MarketRecorder } from '../src/modules/market/recorder.ts';
import { registerMarketRecorder } from '../src/modules/market/routes.ts';
import { Conditions } from '../src/platform/conditions.ts';
import { queryRows } from '../src/platform/db.ts';
import { TICK_REFERENCES } from '../src/tick-references.ts';
import { placed, recordAt, trader } from './contracts.ts';
import { type TestApp, call, createTestApp, fund, registerUser } from './harness.ts';
import { recordPrices } from './prices.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ALERTS_FILE = `${root}deploy/prometheus/alerts.yml`;
const ALERTS_TESTS_FILE = `${root}deploy/prometheus/alerts.test.yml`;
const OPERATIONS_FILE = `${root}docs/operations.md`;

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

interface Run {
  t: TestApp;
  /** Everything the app logged at info and above, parsed. */
  lines: LogLine[];
  evaluate: () => Promise<void>;
  /** `Name` or `Name (key)` of each `alert started` warning and `alert cleared` info line so far. */
  alerts: () => { started: string[]; cleared: string[] };
  metrics: () => Promise<string>;
}

const open: Run[] = [];

/**
 * An app as the harness builds one, but with its log captured and, when asked, the worker
 * parts a test hands it (`setup` runs before it is ready). The conditions' own 5 s timer is
 * stopped: the test evaluates them when it has caused something.
 */
async function start(
  options: {
    env?: Record<string, string>;
    workers?: boolean;
    setup?: (app: FastifyInstance) => void;
  } = {},
): Promise<Run> {
  const lines: LogLine[] = [];
  const t = await createTestApp({
    ...(options.env ? { env: options.env } : {}),
    ...(options.workers ? { workers: true } : {}),
    ...(options.setup ? { beforeReady: options.setup } : {}),
    logger: {
      level: 'info',
      stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
    },
  });
  const { app } = t;
  await app.conditions.stop();
  const run: Run = {
    t,
    lines,
    evaluate: () => app.conditions.evaluate(),
    alerts: () => {
      const of = (kind: string, level: number) =>
        lines
          .filter((line) => line.level === level && line.msg.startsWith(`alert ${kind}: `))
          .map((line) => {
            const match = /^alert \w+: (\w+)(?: \(([^)]*)\))?/.exec(line.msg);
            return match?.[2] ? `${match[1]} (${match[2]})` : (match?.[1] ?? line.msg);
          });
      return { started: of('started', 40), cleared: of('cleared', 30) };
    },
    metrics: () => app.services.metrics.text(),
  };
  open.push(run);
  return run;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const run of open.splice(0)) await run.t.close();
});

/** The value of the one sample of `name` whose labels include `labels`; undefined if none. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found: number[] = [];
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => have[key] === value))
      found.push(Number(match[3]));
  }
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`);
  return found[0];
}

/** Evaluates twice: a condition that holds still starts once. */
async function evaluateTwice(run: Run): Promise<void> {
  await run.evaluate();
  await run.evaluate();
}

/** Moves `Date.now()` (not the app's clock) forward: windows kept in real time pass. */
function realTimePasses(ms: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + ms);
}

/** A stand-in for Binance's stream on localhost that sends the trades the test gives it. */
class FakeExchange {
  readonly server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  readonly sockets: ServerSocket[] = [];

  constructor() {
    this.server.on('connection', (socket) => this.sockets.push(socket));
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/stream`;
  }

  trade(symbol: string, price: string, tradeTimeMs: number): void {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('the feed has not connected');
    socket.send(JSON.stringify({ e: 'aggTrade', s: symbol, p: price, q: '0.5', T: tradeTimeMs }));
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('TradewindFeedStale: a price source that stops answering', () => {
  let exchange: FakeExchange;
  beforeAll(async () => {
    exchange = new FakeExchange();
    await new Promise((resolve) => exchange.server.once('listening', resolve));
  });
  afterAll(() => exchange.close());

  it('starts once when the source has had nothing accepted for over 10 s, clears when it answers again', async () => {
    let recorder: MarketRecorder | undefined;
    const run = await start({
      // Demo mode with Binance: Binance prices the crypto pairs, the demo walk the rest.
      env: { MARKET_SOURCES: 'binance', MARKET_FEED_URL: exchange.url },
      setup: (app) => {
        const { database, clock, hub, relay, config } = app.services;
        recorder = registerMarketRecorder(app, {
          db: database.db,
          clock,
          hub,
          relay,
          config,
          tickReferences: TICK_REFERENCES,
        });
      },
    });
    const { t } = run;
    if (!recorder) throw new Error('no recorder');
    const recording = recorder;
    // The test takes the recorder's turns itself, one per second of its clock.
    await recording.stop();
    await vi.waitFor(() => expect(exchange.sockets.length).toBe(1), { timeout: 10_000 });
    await recording.step();
    expect(recording.isLeading).toBe(true);
    const binanceAge = () =>
      recording
        .tickAges(t.clock.now().getTime())
        .find((age) => age.source === 'binance' && age.instrument === 'BTCUSDT')?.ageS;

    exchange.trade('BTCUSDT', '95000.00', t.clock.now().getTime());
    await vi.waitFor(
      async () => {
        await recording.step();
        expect(binanceAge()).toBe(0);
      },
      { timeout: 10_000 },
    );
    await run.evaluate();
    expect(run.alerts()).toEqual({ started: [], cleared: [] });

    // Binance falls silent; the demo walk goes on.
    t.clock.advance((FEED_STALE_S + 1) * 1000);
    await recording.step();
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({ started: ['TradewindFeedStale (source=binance)'], cleared: [] });
    const started = run.lines.find((line) => line.msg.startsWith('alert started'));
    expect(started).toMatchObject({
      condition: 'TradewindFeedStale',
      key: 'source=binance',
      ageS: 11,
    });
    const text = await run.metrics();
    expect(
      sample(text, 'tradewind_tick_age_seconds', { instrument: 'BTCUSDT', source: 'binance' }),
    ).toBe(FEED_STALE_S + 1);
    expect(
      sample(text, 'tradewind_tick_age_seconds', { instrument: 'EURUSD', source: 'simulated' }),
    ).toBe(0);
    // What the Prometheus rule reads: each source's freshest instrument.
    expect(sample(text, 'tradewind_source_age_seconds', { source: 'binance' })).toBe(
      FEED_STALE_S + 1,
    );
    expect(sample(text, 'tradewind_source_age_seconds', { source: 'simulated' })).toBe(0);
    const ready = await call<{ failing: string[] }>(t.app, 'GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data.failing).toEqual(['prices']);

    exchange.trade('BTCUSDT', '95010.00', t.clock.now().getTime());
    await vi.waitFor(
      async () => {
        await recording.step();
        expect(binanceAge()).toBe(0);
      },
      { timeout: 10_000 },
    );
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({
      started: ['TradewindFeedStale (source=binance)'],
      cleared: ['TradewindFeedStale (source=binance)'],
    });
    expect((await call(t.app, 'GET', '/api/ready')).status).toBe(200);
  });
});

describe('settlement held, then late: TradewindOrdersOverdue and TradewindSettlementLag', () => {
  it('an order 11 s past delivery is overdue; settled then, its lag is over 5 s', async () => {
    let settlement: Settlement | undefined;
    const run = await start({
      setup: (app) => {
        const { database, clock, ledger, hub, metrics } = app.services;
        settlement = new Settlement({ db: database.db, clock, ledger, hub, log: app.log, metrics });
        registerSettlementWorker(app, settlement);
      },
    });
    const { t } = run;
    if (!settlement) throw new Error('no settlement');
    const held = settlement;
    // Held: the worker's loop does not run; the test settles when it chooses.
    await held.stop();
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const order = await placed(t, user.token, { direction: 'up', periodId: 1, amount: '100' });
    const deliverMs = Date.parse(order.deliverAt);
    await recordAt(t, deliverMs, { BTCUSDT: '95100.00' });
    expect(sample(await run.metrics(), 'tradewind_orders_placed_total')).toBe(1);

    t.clock.set(deliverMs + 11_000);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({ started: ['TradewindOrdersOverdue'], cleared: [] });
    expect(sample(await run.metrics(), 'tradewind_orders_overdue')).toBe(1);

    expect(await held.settleDue()).toBe(1);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({
      started: ['TradewindOrdersOverdue', 'TradewindSettlementLag'],
      cleared: ['TradewindOrdersOverdue'],
    });
    const text = await run.metrics();
    expect(sample(text, 'tradewind_orders_overdue')).toBe(0);
    expect(sample(text, 'tradewind_orders_settled_total', { outcome: 'win' })).toBe(1);
    expect(sample(text, 'tradewind_settlement_lag_seconds_bucket', { le: '5' })).toBe(0);
    expect(sample(text, 'tradewind_settlement_lag_seconds_bucket', { le: '30' })).toBe(1);
    expect(sample(text, 'tradewind_settlement_lag_seconds_sum')).toBe(11);

    // A minute without a late settlement: the in-process p99 covers the last minute only.
    realTimePasses(61_000);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({
      started: ['TradewindOrdersOverdue', 'TradewindSettlementLag'],
      cleared: ['TradewindOrdersOverdue', 'TradewindSettlementLag'],
    });
  });
});

describe('TradewindLedgerCheck: a broken ledger row, and a check that is late', () => {
  it('a check that finds the broken row starts it, a clean one clears it; no check for 31 min starts it again', async () => {
    const run = await start({
      setup: (app) => {
        const { database, clock, obligations } = app.services;
        // Its schedule's first turn is 10 s away: the test runs the check itself.
        const worker = registerLedgerCheckWorker(app, { db: database.db, clock, obligations });
        app.addHook('onReady', async () => worker.stop());
      },
    });
    const { t } = run;
    const deps = { db: t.database.db, clock: t.clock, obligations: t.app.services.obligations };
    const user = await registerUser(t.app);
    await fund(t, Number(user.uid), 7_000_000n);
    const [account] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from ledger_accounts where name = ${`user:${user.uid}:spot:USDT`}`,
    );
    // A balance changed beside the ledger, as only a bug below its rules could (triggers off).
    const shiftBalance = (minor: number) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(
          sql`update ledger_accounts set available = available + ${minor} where id = ${Number(account?.id)}`,
        );
      });
    const ledgerOk = async () => sample(await run.metrics(), 'tradewind_ledger_check_ok');

    expect((await runLedgerCheck(deps, null))?.status).toBe('ok');
    await run.evaluate();
    expect(run.alerts()).toEqual({ started: [], cleared: [] });
    expect(await ledgerOk()).toBe(1);

    await shiftBalance(5);
    t.clock.advance(1_000);
    const broken = await runLedgerCheck(deps, null);
    expect(broken?.status).toBe('violations');
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({ started: ['TradewindLedgerCheck'], cleared: [] });
    expect(run.lines.find((line) => line.msg.startsWith('alert started'))).toMatchObject({
      condition: 'TradewindLedgerCheck',
      status: 'violations',
      checkId: broken?.id,
    });
    // The gauges read the newest check at most once a second.
    await vi.waitFor(async () => expect(await ledgerOk()).toBe(0), { timeout: 3_000 });
    expect(sample(await run.metrics(), 'tradewind_ledger_check_last_run_timestamp_seconds')).toBe(
      (Date.parse(broken?.startedAt ?? '') + (broken?.durationMs ?? 0)) / 1000,
    );

    await shiftBalance(-5);
    t.clock.advance(1_000);
    expect((await runLedgerCheck(deps, null))?.status).toBe('ok');
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({
      started: ['TradewindLedgerCheck'],
      cleared: ['TradewindLedgerCheck'],
    });
    await vi.waitFor(async () => expect(await ledgerOk()).toBe(1), { timeout: 3_000 });

    // No check for LEDGER_CHECK_LATE_MS (two missed turns of the schedule): late.
    t.clock.advance(LEDGER_CHECK_LATE_MS + 1_000);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({
      started: ['TradewindLedgerCheck', 'TradewindLedgerCheck'],
      cleared: ['TradewindLedgerCheck'],
    });
    expect(run.lines.filter((line) => line.msg.startsWith('alert started')).at(-1)).toMatchObject({
      condition: 'TradewindLedgerCheck',
      lastRun: expect.any(String),
    });
    expect((await runLedgerCheck(deps, null))?.status).toBe('ok');
    await run.evaluate();
    expect(run.alerts().cleared).toEqual(['TradewindLedgerCheck', 'TradewindLedgerCheck']);
  });
});

describe('TradewindHttp5xx: more than 5 % of the last minute’s requests fail', () => {
  it('2 of 20 requests answering 500 start it; 40 good ones after bring the share under 5 % and clear it', async () => {
    let failing = true;
    const run = await start({
      setup: (app) => {
        app.get('/api/test/flaky', async () => {
          if (failing) throw new Error('test: this route fails on purpose');
          return { code: 0, message: 'ok', data: null };
        });
      },
    });
    const { t } = run;
    const get = () => t.app.inject({ method: 'GET', url: '/api/test/flaky' });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await get()).statusCode);
    failing = false;
    for (let i = 0; i < 18; i++) statuses.push((await get()).statusCode);
    expect(statuses.filter((status) => status === 500)).toHaveLength(2);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({ started: ['TradewindHttp5xx'], cleared: [] });
    expect(run.lines.find((line) => line.msg.startsWith('alert started'))).toMatchObject({
      requests: 20,
      errors: 2,
    });
    const text = await run.metrics();
    const route = { method: 'GET', route: '/api/test/flaky' };
    expect(
      sample(text, 'tradewind_http_request_duration_seconds_count', { ...route, status: '500' }),
    ).toBe(2);
    expect(
      sample(text, 'tradewind_http_request_duration_seconds_count', { ...route, status: '200' }),
    ).toBe(18);

    for (let i = 0; i < 40; i++) expect((await get()).statusCode).toBe(200);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({ started: ['TradewindHttp5xx'], cleared: ['TradewindHttp5xx'] });
  });

  it('a node that is not ready answers every probe 503: those answers are not failed requests', async () => {
    const run = await start({
      setup: (app) => {
        app.readiness.add({
          name: 'test-down',
          run: async () => {
            throw new Error('down on purpose');
          },
        });
      },
    });
    for (let i = 0; i < 25; i++)
      expect((await call(run.t.app, 'GET', '/api/ready')).status).toBe(503);
    await evaluateTwice(run);
    expect(run.alerts().started).toEqual([]);
    // The metric keeps them, by route; alerts.yml leaves the probe's route out of the share.
    expect(
      sample(await run.metrics(), 'tradewind_http_request_duration_seconds_count', {
        route: '/api/ready',
        status: '503',
      }),
    ).toBe(25);
  });
});

describe('TradewindReadinessFlapping: /api/ready changes its answer 4 times in 10 minutes', () => {
  it('a check switched off and on twice starts it; 10 minutes later it clears', async () => {
    let up = true;
    const run = await start({
      setup: (app) => {
        app.readiness.add({
          name: 'test-switch',
          run: async () => {
            if (!up) throw new Error('switched off');
          },
        });
      },
    });
    const { t } = run;
    const probe = async () => (await call(t.app, 'GET', '/api/ready')).status;
    expect(await probe()).toBe(200);
    const answers: number[] = [];
    for (const next of [false, true, false, true]) {
      up = next;
      answers.push(await probe());
    }
    expect(answers).toEqual([503, 200, 503, 200]);
    expect(run.lines.filter((line) => line.msg === 'not ready')).toHaveLength(2);
    expect(run.lines.filter((line) => line.msg === 'ready again')).toHaveLength(2);
    expect(sample(await run.metrics(), 'tradewind_readiness_changes_total')).toBe(4);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({ started: ['TradewindReadinessFlapping'], cleared: [] });

    realTimePasses(10 * 60_000 + 1_000);
    await evaluateTwice(run);
    expect(run.alerts()).toEqual({
      started: ['TradewindReadinessFlapping'],
      cleared: ['TradewindReadinessFlapping'],
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'TradewindDbPoolSaturated: queries wait for a connection (PostgreSQL)',
  () => {
    it('every connection held by a slow query and more waiting: starts on the third evaluation, clears when they end', async () => {
      const run = await start();
      const { t } = run;
      const poolStats = t.database.poolStats;
      if (!poolStats) throw new Error('no pool stats on PostgreSQL');
      const main = () => poolStats().find((stats) => stats.pool === 'main');
      const max = main()?.max ?? 0;
      expect(max).toBeGreaterThan(0);
      // Drizzle's queries run when awaited: `then` sends each now.
      const held = Array.from({ length: max + 2 }, () =>
        t.database.db.execute(sql`select pg_sleep(6)`).then(() => undefined),
      );
      await vi.waitFor(() => expect(main()?.waiting).toBe(2), { timeout: 5_000 });
      await evaluateTwice(run);
      expect(run.alerts().started).toEqual([]);
      await run.evaluate();
      expect(run.alerts()).toEqual({
        started: ['TradewindDbPoolSaturated (pool=main)'],
        cleared: [],
      });
      // The scrape waits for /api/ready's database check, which waits for a connection too.
      const text = await run.metrics();
      expect(sample(text, 'tradewind_db_pool_waiting', { pool: 'main' })).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'tradewind_db_pool_in_use', { pool: 'main' })).toBe(max);
      expect(sample(text, 'tradewind_db_pool_max', { pool: 'main' })).toBe(max);
      expect(sample(text, 'tradewind_ready')).toBe(0);
      await evaluateTwice(run);
      expect(run.alerts().started).toEqual(['TradewindDbPoolSaturated (pool=main)']);

      await Promise.all(held);
      await vi.waitFor(() => expect(main()?.waiting).toBe(0), { timeout: 10_000 });
      await run.evaluate();
      expect(run.alerts()).toEqual({
        started: ['TradewindDbPoolSaturated (pool=main)'],
        cleared: ['TradewindDbPoolSaturated (pool=main)'],
      });
    }, 40_000);
  },
);

const natsUrl = process.env.TEST_NATS_URL;
describe.skipIf(!natsUrl)(
  'TradewindEventBusDown: the NATS connection is lost (TEST_NATS_URL)',
  () => {
    it('starts on the second evaluation while disconnected, clears once the relay is back', async () => {
      const proxy = await cuttableProxy(new URL(natsUrl ?? 'nats://127.0.0.1:4222'));
      try {
        const run = await start({
          env: {
            NATS_URL: proxy.url,
            NATS_SUBJECT_PREFIX: `tw${crypto.randomBytes(4).toString('hex')}`,
          },
        });
        const { t } = run;
        const { relay } = t.app.services;
        await vi.waitFor(() => expect(relay.connected).toBe(true), { timeout: 10_000 });
        expect(sample(await run.metrics(), 'tradewind_event_bus_connected')).toBe(1);

        proxy.refuse(true);
        await vi.waitFor(() => expect(relay.connected).toBe(false), { timeout: 10_000 });
        await run.evaluate();
        expect(run.alerts().started).toEqual([]);
        await evaluateTwice(run);
        expect(run.alerts()).toEqual({ started: ['TradewindEventBusDown'], cleared: [] });
        expect(sample(await run.metrics(), 'tradewind_event_bus_connected')).toBe(0);
        const ready = await call<{ failing: string[] }>(t.app, 'GET', '/api/ready');
        expect(ready.body.data.failing).toEqual(['event-bus']);

        proxy.refuse(false);
        await vi.waitFor(() => expect(relay.connected).toBe(true), { timeout: 15_000 });
        await run.evaluate();
        expect(run.alerts()).toEqual({
          started: ['TradewindEventBusDown'],
          cleared: ['TradewindEventBusDown'],
        });
        expect(sample(await run.metrics(), 'tradewind_event_bus_connected')).toBe(1);
      } finally {
        for (const run of open.splice(0)) await run.t.close();
        await proxy.close();
      }
    });
  },
);

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function alertRules(): Rule[] {
  const file = parse(fs.readFileSync(ALERTS_FILE, 'utf8')) as {
    groups: { name: string; rules: Rule[] }[];
  };
  return file.groups.flatMap((group) => group.rules);
}

/** The `### ` headings of one `## ` section of docs/operations.md. */
function sectionOf(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/operations.md has no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function promtool(): string | null {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return 'promtool';
  } catch {
    return null;
  }
}

describe('alerts.yml, its runbook and the server agree', () => {
  it('alerts.yml is valid rules whose unit tests pass (promtool), each with a severity, a summary and a runbook', () => {
    const rules = alertRules();
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^Tradewind[A-Z][A-Za-z0-9]+$/);
      expect(rule.expr.trim(), rule.alert).not.toBe('');
      if (rule.for !== undefined) expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['page', 'ticket'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.runbook_url, rule.alert).toBe(
        `docs/operations.md#${rule.alert.toLowerCase()}`,
      );
    }
    const tool = promtool();
    if (!tool) {
      console.info('alerts.test.ts: promtool is not installed; alerts.yml checked as YAML only');
      return;
    }
    execFileSync(tool, ['check', 'rules', ALERTS_FILE], { stdio: 'pipe' });
    execFileSync(tool, ['test', 'rules', ALERTS_TESTS_FILE], { stdio: 'pipe' });
  });

  it('every metric an alert reads is in the registry of a process with workers, and every metric is in the runbook', async () => {
    const run = await start({ workers: true });
    const text = await run.metrics();
    const types = new Map(
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
    );
    const used = new Set(alertRules().flatMap((rule) => rule.expr.match(/\btradewind_\w+/g) ?? []));
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) {
      const base = name.replace(/_(bucket|count|sum)$/, '');
      const type = types.get(name) ?? (base !== name ? types.get(base) : undefined);
      expect(type, `${name} (alerts.yml) is not exported`).toBeDefined();
      if (!types.has(name)) expect(type, name).toBe('histogram');
    }
    const metricsSection = sectionOf(fs.readFileSync(OPERATIONS_FILE, 'utf8'), 'Metrics');
    for (const name of types.keys())
      if (name.startsWith('tradewind_'))
        expect(metricsSection, `${name} is not in docs/operations.md#metrics`).toContain(
          `\`${name}\``,
        );
  });

  it('every alert has a runbook entry under "## Alerts", every entry an alert, every condition of the server an alert', async () => {
    const names = new Set(alertRules().map((rule) => rule.alert));
    const section = sectionOf(fs.readFileSync(OPERATIONS_FILE, 'utf8'), 'Alerts');
    const entries = [...section.matchAll(/^### (.+)$/gm)].map((match) => anchorOf(match[1] ?? ''));
    expect(new Set(entries)).toEqual(new Set([...names].map((name) => name.toLowerCase())));

    // The conditions an app with workers watches, as its parts add them.
    const add = vi.spyOn(Conditions.prototype, 'add');
    let conditions: Set<string>;
    try {
      await start({ workers: true });
      conditions = new Set(add.mock.calls.map(([condition]) => condition.name));
    } finally {
      add.mockRestore();
    }
    expect([...conditions].sort()).toEqual([
      'TradewindDbPoolSaturated',
      'TradewindEventBusDown',
      'TradewindFeedStale',
      'TradewindHttp5xx',
      'TradewindLedgerCheck',
      'TradewindOrdersOverdue',
      'TradewindReadinessFlapping',
      'TradewindSettlementLag',
    ]);
    // A process cannot report itself down: that one is Prometheus' alone.
    expect([...names].filter((name) => !conditions.has(name))).toEqual(['TradewindTargetDown']);
  });

  it('a process exports only what it has: an API process no ledger check and no overdue count', async () => {
    // min() over every process would see an API process's 0 as a failed check.
    const run = await start();
    const text = await run.metrics();
    expect(text).toContain('# TYPE tradewind_ledger_check_ok gauge');
    for (const name of [
      'tradewind_ledger_check_ok',
      'tradewind_ledger_check_duration_seconds',
      'tradewind_ledger_check_last_run_timestamp_seconds',
      'tradewind_orders_overdue',
    ])
      expect(sample(text, name), name).toBeUndefined();
    await run.evaluate();
    expect(run.alerts()).toEqual({ started: [], cleared: [] });
  });
});
