// bench/load: minutes of mixed traffic through the HTTP API on PostgreSQL, with open-loop
// arrivals: requests leave on a Poisson schedule at the target rate whether or not earlier
// ones have been answered, so a slow server shows as latency and shed requests instead of
// quietly lowering the rate. Target (issue 8): orders at twice the rate bench/orders
// reaches, errors < 0.1 %, p99 per route reported, the ledger's invariants hold afterwards,
// and the server's memory stays flat.
//
//   node --import tsx bench/load/run.ts [--minutes 10] [--rate N] [--seed 1] [--users 20000] [--max-in-flight 2000] [--connections 256]
//
// `--rate` is orders per second; by default twice `api.ordersPerSecond` in bench/results/orders.json.
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { errorName } from '@tradewind/contract/errors';
import pg from 'pg';
import { checkLedger } from '../../apps/server/src/modules/ledger/invariants.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../../apps/server/src/obligations.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import {
  ROOT,
  freshDatabase,
  percentile,
  runStamp,
  seededRandom,
  startServer,
} from '../lib/harness.ts';
import { TRADE_PIN, createTraders, waitForPrices } from '../lib/traders.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string' },
    seed: { type: 'string', default: '1' },
    users: { type: 'string', default: '20000' },
    'max-in-flight': { type: 'string', default: '2000' },
    connections: { type: 'string', default: '256' },
  },
});
const durationMs = Number(values.minutes) * 60_000;
const seed = Number(values.seed);
const userCount = Number(values.users);
const maxInFlight = Number(values['max-in-flight']);
const connections = Number(values.connections);
const ordersBench = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'bench/results/orders.json'), 'utf8'),
) as { date: string; api: { ordersPerSecond: number } };
const orderRate = values.rate ? Number(values.rate) : 2 * ordersBench.api.ordersPerSecond;

// A request unanswered this long after it was sent is a failure, as it would be for a client.
const TIMEOUT_MS = 10_000;
// An arrival the generator itself sends this late is counted as late (its latency still starts on schedule).
const LATE_MS = 50;
const SAMPLE_MS = 10_000;
const WARM_UP_MS = 30_000;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT'];

/**
 * The traffic, per order: every order comes with a tenth of a balance read, and a few
 * hundredths of order lists, tickers, candles, transfers and conversions (a quote, then
 * its execution). Orders are 30 s and 60 s ones, so the settlement worker settles them
 * during the run, in the same process, as it does in production with ROLE=all.
 */
const MIX = [
  { scenario: 'order', share: 1 },
  { scenario: 'balances', share: 0.1 },
  { scenario: 'openOrders', share: 0.05 },
  { scenario: 'tickers', share: 0.05 },
  { scenario: 'klines', share: 0.02 },
  { scenario: 'transfer', share: 0.02 },
  { scenario: 'convert', share: 0.01 },
] as const;
type Scenario = (typeof MIX)[number]['scenario'];
const ROUTE_OF = {
  order: 'POST /api/v1/contracts/orders',
  balances: 'GET /api/v1/wallet/balances',
  openOrders: 'GET /api/v1/contracts/orders',
  tickers: 'GET /api/v1/market/tickers',
  klines: 'GET /api/v1/market/klines',
  transfer: 'POST /api/v1/wallet/transfer',
  convert: 'POST /api/v1/convert/quote',
} as const satisfies Record<Scenario, string>;
const CONVERT_ROUTE = 'POST /api/v1/convert';
const totalRate = MIX.reduce((sum, m) => sum + m.share * orderRate, 0);

const random = seededRandom(seed);

const databaseUrl = await freshDatabase('load_bench');
// BENCH_SERVER_NODE_ARGS='--cpu-prof' profiles the server under the load, as for bench/orders.
const server = await startServer(
  databaseUrl,
  { ROLE: 'all' },
  process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
);
const serverPid = server.child.pid as number;
console.log(`server on ${server.baseUrl} (pid ${serverPid}); creating ${userCount} traders`);

// Each trader holds 1,000,000 USDT in each account and 1 BTC: no order, transfer or
// conversion of the run can run short. Orders go to traders in turn, so at 3,600 orders/s
// over 20,000 traders one holds about 8 open orders (at most 11, all 60 s ones), under the limit of 20.
const traders = await createTraders(server.baseUrl, databaseUrl, 'load', userCount, [
  { wallet: 'futures', asset: 'USDT', amountMinor: 1_000_000_000_000n },
  { wallet: 'spot', asset: 'USDT', amountMinor: 1_000_000_000_000n },
  { wallet: 'spot', asset: 'BTC', amountMinor: 100_000_000n },
]);
await waitForPrices(server.baseUrl);

interface Reply {
  /** 0 when no HTTP reply came: a network failure or a timeout. */
  status: number;
  code: number;
  data: unknown;
  failure?: string;
}

// The traffic comes over a pool of keep-alive connections, as through a load balancer: a
// request finding them all busy waits for one, and that wait is part of its latency.
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const base = new URL(server.baseUrl);
function call(
  method: 'GET' | 'POST',
  url: string,
  token: string | null,
  body?: unknown,
): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
    headers['idempotency-key'] = `load-${crypto.randomUUID()}`;
  }
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path: url,
        headers,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              code: number;
              data: unknown;
            };
            resolve({ status: response.statusCode ?? 0, code: envelope.code, data: envelope.data });
          } catch {
            resolve({
              status: response.statusCode ?? 0,
              code: -1,
              data: null,
              failure: 'unparsable reply',
            });
          }
        });
        response.on('error', (error) =>
          resolve({ status: 0, code: -1, data: null, failure: failureOf(error) }),
        );
      },
    );
    request.on('error', (error) =>
      resolve({ status: 0, code: -1, data: null, failure: failureOf(error) }),
    );
    request.end(payload);
  });
}

function failureOf(error: Error): string {
  return error.name === 'AbortError' ? `timeout (${TIMEOUT_MS / 1000} s)` : error.message;
}

interface RouteStats {
  offered: number;
  shed: number;
  late: number;
  ok: number;
  /** Requests without a reply: the server may still have done them. */
  unanswered: number;
  latencies: number[];
  errors: Map<string, number>;
}
const stats = new Map<string, RouteStats>();
function statsOf(route: string): RouteStats {
  let s = stats.get(route);
  if (!s) {
    s = { offered: 0, shed: 0, late: 0, ok: 0, unanswered: 0, latencies: [], errors: new Map() };
    stats.set(route, s);
  }
  return s;
}

/**
 * No refusal is expected: traders are funded for the whole run, stay under the open-order
 * limit and execute their quotes at once. So an error is any reply that is not HTTP 2xx
 * with code 0, and any request without a reply (network failure, timeout), each counted by kind.
 */
function record(route: string, startedAt: number, reply: Reply): boolean {
  const s = statsOf(route);
  s.latencies.push(performance.now() - startedAt);
  const ok = reply.status >= 200 && reply.status < 300 && reply.code === 0;
  if (ok) s.ok++;
  else {
    if (reply.status === 0) s.unanswered++;
    const kind =
      reply.status === 0
        ? `no reply: ${reply.failure}`
        : `${reply.status} ${errorName(reply.code) ?? reply.failure ?? reply.code}`;
    s.errors.set(kind, (s.errors.get(kind) ?? 0) + 1);
  }
  return ok;
}

let orderCounter = 0;
let toggle = 0;
const traderAt = () => traders[Math.floor(random() * traders.length)] as { token: string };

/** One arrival of `scenario`; `scheduledAt` is when it was due, where its latency starts. */
async function run(scenario: Scenario, scheduledAt: number): Promise<void> {
  const route = ROUTE_OF[scenario];
  switch (scenario) {
    case 'order': {
      const trader = traders[orderCounter++ % traders.length] as { token: string };
      const body = {
        symbol: SYMBOLS[Math.floor(random() * SYMBOLS.length)],
        direction: random() < 0.5 ? 'up' : 'down',
        periodId: random() < 0.5 ? 1 : 2,
        amount: '10',
        tradePassword: TRADE_PIN,
      };
      const ok = record(
        route,
        scheduledAt,
        await call('POST', '/api/v1/contracts/orders', trader.token, body),
      );
      // Counted in the sample window where the answer came.
      if (ok) current.ordersOk++;
      current.orderLatencies.push(performance.now() - scheduledAt);
      return;
    }
    case 'balances':
      record(route, scheduledAt, await call('GET', '/api/v1/wallet/balances', traderAt().token));
      return;
    case 'openOrders':
      record(
        route,
        scheduledAt,
        await call('GET', '/api/v1/contracts/orders?state=open&limit=20', traderAt().token),
      );
      return;
    case 'tickers':
      record(route, scheduledAt, await call('GET', '/api/v1/market/tickers', null));
      return;
    case 'klines':
      record(
        route,
        scheduledAt,
        await call(
          'GET',
          `/api/v1/market/klines?symbol=${SYMBOLS[Math.floor(random() * SYMBOLS.length)]}&interval=1m&limit=120`,
          null,
        ),
      );
      return;
    case 'transfer': {
      const [from, to] = toggle++ % 2 ? ['spot', 'futures'] : ['futures', 'spot'];
      record(
        route,
        scheduledAt,
        await call('POST', '/api/v1/wallet/transfer', traderAt().token, {
          from,
          to,
          asset: 'USDT',
          amount: '1',
        }),
      );
      return;
    }
    case 'convert': {
      const trader = traderAt();
      const quote =
        toggle++ % 2
          ? { from: 'USDT', to: 'BTC', amount: '10' }
          : { from: 'BTC', to: 'USDT', amount: '0.0001' };
      const quoted = await call('POST', '/api/v1/convert/quote', trader.token, quote);
      if (!record(route, scheduledAt, quoted)) return;
      // The execution follows the quote at once, as a person pressing "convert" does; its latency is its own.
      const executeAt = performance.now();
      record(
        CONVERT_ROUTE,
        executeAt,
        await call('POST', '/api/v1/convert', trader.token, {
          quoteId: (quoted.data as { id: string }).id,
        }),
      );
      return;
    }
  }
}

function pickScenario(): Scenario {
  let r = random() * totalRate;
  for (const m of MIX) {
    r -= m.share * orderRate;
    if (r < 0) return m.scenario;
  }
  return 'order';
}

/** CPU time the server process has used, in seconds (utime + stime, clock ticks of 1/100 s). */
function serverCpuSeconds(): number {
  const fields =
    fs.readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMiB(): number {
  const status = fs.readFileSync(`/proc/${serverPid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1]) / 1024;
}

interface Window {
  ordersOk: number;
  orderLatencies: number[];
  shed: number;
}
interface Sample {
  atS: number;
  rssMiB: number;
  ordersPerSecond: number;
  orderP99Ms: number;
  inFlight: number;
  shed: number;
}

const idleRssMiB = rssMiB();
console.log(
  `offering ${orderRate} orders/s (${Math.round(totalRate)} requests/s in all) for ${durationMs / 60_000} min, at most ${maxInFlight} in flight over ${connections} connections; server RSS ${idleRssMiB.toFixed(0)} MiB`,
);
const timeline: Sample[] = [];
let current: Window = { ordersOk: 0, orderLatencies: [], shed: 0 };
let inFlight = 0;
const pending = new Set<Promise<void>>();
const started = performance.now();
const cpuAtStart = { server: serverCpuSeconds(), generator: process.cpuUsage() };
let nextArrivalMs = 0;

/** Sends every arrival that is due; an arrival finding `maxInFlight` requests unanswered is shed. */
function pump(): void {
  const nowMs = performance.now() - started;
  while (nextArrivalMs <= nowMs && nextArrivalMs < durationMs) {
    const scheduledAt = started + nextArrivalMs;
    nextArrivalMs += (-Math.log(1 - random()) * 1000) / totalRate;
    const scenario = pickScenario();
    const s = statsOf(ROUTE_OF[scenario]);
    s.offered++;
    if (inFlight >= maxInFlight) {
      s.shed++;
      current.shed++;
      continue;
    }
    if (nowMs - (scheduledAt - started) > LATE_MS) s.late++;
    inFlight++;
    const task = run(scenario, scheduledAt).finally(() => {
      inFlight--;
      pending.delete(task);
    });
    pending.add(task);
  }
}

const sampler = setInterval(() => {
  const sample = {
    atS: Math.round((performance.now() - started) / 1000),
    rssMiB: Number(rssMiB().toFixed(1)),
    ordersPerSecond: Math.round(current.ordersOk / (SAMPLE_MS / 1000)),
    orderP99Ms: Number(
      percentile(
        current.orderLatencies.sort((a, b) => a - b),
        99,
      ).toFixed(1),
    ),
    inFlight,
    shed: current.shed,
  };
  timeline.push(sample);
  current = { ordersOk: 0, orderLatencies: [], shed: 0 };
  console.log(
    `${sample.atS} s: ${sample.ordersPerSecond} orders/s, p99 ${sample.orderP99Ms} ms, ${sample.inFlight} in flight, ${sample.shed} shed, RSS ${sample.rssMiB} MiB`,
  );
}, SAMPLE_MS);
const pumping = setInterval(pump, 2);
await new Promise((resolve) => setTimeout(resolve, durationMs));
clearInterval(pumping);
pump();
const trafficMs = performance.now() - started;
// Answers still owed are waited for (at most the timeout): they are part of the run.
await Promise.all(pending);
clearInterval(sampler);
const endRssMiB = rssMiB();
// Cores each process kept busy on average: with the machine shared, what the server got of it.
const generatorCpu = process.cpuUsage(cpuAtStart.generator);
const elapsedS = (performance.now() - started) / 1000;
const cores = {
  server: Number(((serverCpuSeconds() - cpuAtStart.server) / elapsedS).toFixed(2)),
  loadGenerator: Number(((generatorCpu.user + generatorCpu.system) / 1e6 / elapsedS).toFixed(2)),
};
await server.stop();
agent.destroy();

// What the database says: every acknowledged order stored, and no refused one (an order
// whose reply never came may or may not be), settlement keeping up.
const acknowledgedOrders = statsOf(ROUTE_OF.order).ok;
const unansweredOrders = statsOf(ROUTE_OF.order).unanswered;
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const traderIds = traders.map((t) => String(t.uid));
const { rows: stored } = await client.query<{ n: string; open: string }>(
  "select count(*)::text as n, count(*) filter (where state = 'open')::text as open from contract_orders where user_id = any($1::bigint[])",
  [traderIds],
);
const { rows: lag } = await client.query<{
  n: string;
  p50: number | null;
  p99: number | null;
  max: number | null;
}>(
  `select count(*)::text as n, percentile_disc(0.5) within group (order by lag) as p50, percentile_disc(0.99) within group (order by lag) as p99, max(lag) as max
   from (select (extract(epoch from settled_at - deliver_at) * 1000)::float8 as lag from contract_orders where state = 'settled' and user_id = any($1::bigint[])) s`,
  [traderIds],
);
await client.end();
// Open orders and withdrawals hold funds locked: the checker must know (the server registers these at start).
const database = await openDatabase({ databaseUrl, poolSize: 2 });
const violations = await checkLedger(database.db, LOCKED_FUND_OBLIGATIONS);
await database.close();

const routes: Record<string, object> = {};
let arrivals = 0;
let issued = 0;
let errors = 0;
let shed = 0;
let late = 0;
for (const route of [...Object.values(ROUTE_OF), CONVERT_ROUTE]) {
  const s = statsOf(route);
  const latencies = s.latencies.sort((a, b) => a - b);
  const routeErrors = latencies.length - s.ok;
  arrivals += s.offered;
  issued += latencies.length;
  errors += routeErrors;
  shed += s.shed;
  late += s.late;
  routes[route] = {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / (trafficMs / 1000)),
    ok: s.ok,
    errors: routeErrors,
    errorsByKind: Object.fromEntries(s.errors),
    shed: s.shed,
    late: s.late,
    p50Ms: Number(percentile(latencies, 50).toFixed(1)),
    p99Ms: Number(percentile(latencies, 99).toFixed(1)),
    maxMs: Number((latencies.at(-1) ?? Number.NaN).toFixed(1)),
  };
}

// Memory from the end of the warm-up on: its start, end, peak and least-squares slope.
const steady = timeline.filter((s) => s.atS * 1000 >= WARM_UP_MS);
const startRssMiB = steady[0]?.rssMiB ?? endRssMiB;
const slope = leastSquaresSlope(steady.map((s) => [s.atS / 60, s.rssMiB]));
function leastSquaresSlope(points: [number, number][]): number {
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return covariance / variance;
}

const lagRow = lag[0];
const storedOrders = Number(stored[0]?.n);
const ordersAccounted =
  acknowledgedOrders <= storedOrders && storedOrders <= acknowledgedOrders + unansweredOrders;
const errorRate = errors / Math.max(1, issued);
const result = {
  ...runStamp(),
  minutes: Number(values.minutes),
  seed,
  users: userCount,
  maxInFlight,
  connections,
  timeoutMs: TIMEOUT_MS,
  figures: {
    orders: {
      targetPerSecond: orderRate,
      achievedPerSecond: Math.round(acknowledgedOrders / (trafficMs / 1000)),
      acknowledged: acknowledgedOrders,
      unanswered: unansweredOrders,
      stored: storedOrders,
    },
    // Arrivals are what the schedule offered; a conversion's execution follows its quote, so requests are more.
    arrivals: { offered: arrivals, shed, late },
    requests: {
      issued,
      perSecond: Math.round(issued / (trafficMs / 1000)),
      errors,
      errorRate: Number(errorRate.toFixed(5)),
    },
    routes,
    settlement: {
      settled: Number(lagRow?.n),
      lagP50Ms: lagRow?.p50 === null ? null : Math.round(lagRow?.p50 ?? 0),
      lagP99Ms: lagRow?.p99 === null ? null : Math.round(lagRow?.p99 ?? 0),
      lagMaxMs: lagRow?.max === null ? null : Math.round(lagRow?.max ?? 0),
      openAtEnd: Number(stored[0]?.open),
    },
    cores,
    memory: {
      idleMiB: Number(idleRssMiB.toFixed(1)),
      startMiB: startRssMiB,
      endMiB: Number(endRssMiB.toFixed(1)),
      maxMiB: Number(Math.max(endRssMiB, ...timeline.map((s) => s.rssMiB)).toFixed(1)),
      slopeMiBPerMinute: Number(slope.toFixed(2)),
    },
    timeline,
  },
  target: {
    ordersPerSecond: orderRate,
    basis: values.rate
      ? 'given with --rate'
      : `twice ${ordersBench.api.ordersPerSecond} orders/s of bench/results/orders.json (${ordersBench.date})`,
    errorRate: 0.001,
  },
  invariants:
    violations.length === 0 && ordersAccounted
      ? 'hold'
      : { ledger: violations, ordersAccounted, acknowledgedOrders, unansweredOrders, storedOrders },
};
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/load.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(
  JSON.stringify({ ...result, figures: { ...result.figures, timeline: undefined } }, null, 2),
);
if (result.invariants !== 'hold' || errorRate >= result.target.errorRate) process.exitCode = 1;
