// bench/cluster: the fleet of issue 30 on this machine. PostgreSQL, Redis and NATS; the
// schema migrated once (`npm run migrate`), then two API nodes (ROLE=api, each on its own
// port, MIGRATE_ON_START=false, DRAIN_MS=1000, rate-limit counters in Redis, events over NATS)
// and one worker (ROLE=worker: price recorder, settlement). Users (KYC passed, trading
// password, funded futures account) place instant-contract orders through both nodes
// round-robin, from a client that probes `/api/ready` like a load balancer and sends a
// request whose connection failed to the other node with the same Idempotency-Key
// (balancer.ts). Each user has a socket signed in on one of the nodes (sockets.ts). During
// the traffic: a rolling restart of each API node in turn (SIGTERM, exit, start, ready again)
// and a kill -9 of the worker, started again at once.
//
//   node --import tsx bench/cluster/run.ts [--seconds 60] [--users 100] [--loops 32] [--seed N] [--short]
//
// Musts (exit code 1 when one fails): no request lost (every order answered, after retries),
// every acknowledged order in the database once and no order placed twice by a retry, no order
// settled twice, the ledger's invariants, no order still open RECOVERY_MS past its delivery
// after the traffic, every API node exiting 0 on SIGTERM and ready again. Reported beside:
// accepted orders a second, the cross-node delivery of `order.placed` (the order sent to one
// node, its event on the user's socket on the other) against the same-node delivery.
// `--short` (CI): 20 s of traffic, with both restarts and the worker's kill all the same.
// Only a full run (not --short, --seconds ≥ 60) writes bench/results/cluster.json.
//
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres),
// Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379) and NATS (BENCH_NATS_URL, default
// nats://127.0.0.1:4222). Uploads are not part of the traffic, so S3 is not used.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { checkLedger } from '../../apps/server/src/modules/ledger/invariants.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../../apps/server/src/obligations.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { ROOT, freshDatabase, percentile, runStamp, seededRandom } from '../lib/harness.ts';
import { TRADE_PIN, createTraders, waitForPrices } from '../lib/traders.ts';
import { type Answer, Balancer } from './balancer.ts';
import { type ClusterEnv, ClusterProcess } from './nodes.ts';
import { type Session, UserSockets } from './sockets.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    users: { type: 'string', default: '100' },
    loops: { type: 'string', default: '32' },
    seed: { type: 'string' },
    short: { type: 'boolean', default: false },
  },
});
const short = values.short === true;
const seconds = Number(values.seconds ?? (short ? 20 : 60));
const userCount = Number(values.users);
const loopCount = Number(values.loops);
const seed = values.seed === undefined ? crypto.randomInt(2 ** 31) : Number(values.seed);
const FULL_RUN_SECONDS = 60;
const fullRun = !short && seconds >= FULL_RUN_SECONDS;

/** The orders' period: short, so orders come due and settle all through the traffic (and the worker's kill lands mid-settlement). */
const PERIOD_SECONDS = 5;
/** How long after its delivery an order may still be open once the traffic is over. */
const RECOVERY_MS = 10_000;
const DRAIN_MS = 1_000;
/**
 * A socket counts on an event only if it signed in this long before the order was sent (or
 * settled): its node's NATS subscription to the user's channel is on its way meanwhile...
 */
const SIGNED_IN_BEFORE_MS = 250;
/** ...and stayed open at least this long after the reply (or the settlement). */
const OPEN_AFTER_MS = 2_000;
/** A supervisor's pause before it starts a crashed worker again. */
const WORKER_RESTART_DELAY_MS = 500;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT'];
const STAKE = '10';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (value: number) => Math.round(value);
const stats = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: ms(percentile(sorted, 50)),
    p99Ms: ms(percentile(sorted, 99)),
    maxMs: ms(sorted.at(-1) ?? Number.NaN),
  };
};

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url.split(',')[0] as string);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

for (const [what, url, port] of [
  ['Redis (BENCH_REDIS_URL)', REDIS_URL, 6379],
  ['NATS (BENCH_NATS_URL)', NATS_URL, 4222],
] as const) {
  if (!(await reachable(url, port))) {
    console.error(`bench:cluster needs ${what}: nothing answers at ${url}`);
    process.exit(2);
  }
}

const runStarted = performance.now();
const prefix = `twcluster${crypto.randomBytes(3).toString('hex')}`;
console.log(
  `bench:cluster seed ${seed} (replay: --seed ${seed}), ${seconds} s of traffic${short ? ' (short)' : ''}, ${userCount} users, ${loopCount} client loops, Redis and NATS prefix ${prefix}`,
);

// The fleet's first release: a fresh database, migrated once by the command a fleet runs.
const databaseUrl = await freshDatabase('tw_bench_cluster');
const migrateStarted = performance.now();
const migrated = await promisify(execFile)(
  process.execPath,
  ['--import', 'tsx', 'apps/server/src/cli/migrate.ts'],
  { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } },
);
const migrateMs = performance.now() - migrateStarted;
console.log(`${migrated.stdout.trim()} (${(migrateMs / 1000).toFixed(1)} s)`);
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
// An operator's period of 5 s (the catalog is the console's; here written before any node starts).
const { rows: periodRows } = await admin.query<{ id: number }>(
  `insert into contract_periods (seconds, payout_rate_ppm, fee_rate_ppm, min_stake_minor, max_stake_minor, active, sort_order)
   values ($1, 800000, 2000, 10000000, 10000000000, true, 0) returning id`,
  [PERIOD_SECONDS],
);
const periodId = periodRows[0]?.id as number;

const cluster: ClusterEnv = {
  databaseUrl,
  redisUrl: REDIS_URL,
  natsUrl: NATS_URL,
  prefix,
  drainMs: DRAIN_MS,
};
const apiNodes = [
  await ClusterProcess.create('api-1', 'api', cluster),
  await ClusterProcess.create('api-2', 'api', cluster),
];
const worker = await ClusterProcess.create('worker', 'worker', cluster);
const processes = [...apiNodes, worker];
// Interrupted (Ctrl-C), the bench takes its processes down with it rather than leave them running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of processes) child.killNow();
    process.exit(130);
  });
}

/** The newest recorded tick's id (0: none yet), and its time. */
async function lastTick(): Promise<{ id: number; atMs: number }> {
  const { rows } = await admin.query<{ id: string; at: number | null }>(
    'select coalesce(max(id), 0)::text as id, extract(epoch from max(ts)) * 1000 as at from market_ticks',
  );
  return { id: Number(rows[0]?.id ?? 0), atMs: Number(rows[0]?.at ?? 0) };
}

/** A worker is back once it records prices again: resolves with the first new tick's time. */
async function waitForRecording(afterTickId: number): Promise<number> {
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    if (!worker.running) throw new Error(`the worker exited (${worker.exitStatus})`);
    const { rows } = await admin.query<{ at: number | null }>(
      'select extract(epoch from min(ts)) * 1000 as at from market_ticks where id > $1',
      [afterTickId],
    );
    const at = rows[0]?.at;
    if (at !== null && at !== undefined) return Number(at);
    await sleep(100);
  }
  throw new Error('the worker recorded no price within 120 s of its start');
}

/**
 * The rate-limit counters the nodes keep in Redis under the run's prefix. Each lives for the
 * minute after its first count, so they are counted while the traffic still runs.
 */
async function redisCounters(): Promise<number> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let keys = 0;
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    keys += batch.length;
  } while (cursor !== '0');
  await redis.quit();
  return keys;
}

const failures: string[] = [];
const fail = (what: string, detail?: unknown) =>
  failures.push(detail === undefined ? what : `${what}: ${JSON.stringify(detail).slice(0, 400)}`);

try {
  // Setup (not under test): the three processes, then the users, then their sockets. The
  // worker first: every process seeds the demo data at start, and once the worker records
  // prices its seeding is done, so the API nodes starting together find it there.
  const bootStarted = performance.now();
  await worker.spawn();
  await waitForRecording(0);
  for (const node of apiNodes) await node.spawn();
  await Promise.all(apiNodes.map((node) => node.waitReady()));
  const bootMs = performance.now() - bootStarted;
  console.log(`two API nodes and a worker ready after ${(bootMs / 1000).toFixed(1)} s`);

  const users = await createTraders(
    apiNodes[0]?.baseUrl as string,
    databaseUrl,
    'cluster',
    userCount,
    [{ wallet: 'futures', asset: 'USDT', amountMinor: 1_000_000_000_000n }],
  );
  await waitForPrices(apiNodes[0]?.baseUrl as string);

  const balancer = new Balancer(apiNodes.map((node) => node.baseUrl));
  balancer.startProbes();
  await Promise.all(apiNodes.map((_, i) => balancer.waitReady(i)));

  // The user channel's events: `order.placed` by order id and socket session, `order.settled`'s delay past delivery.
  const placedEvents = new Map<string, { session: Session; atMs: number }[]>();
  const settledPushMs: number[] = [];
  const settledEvents = new Map<string, Set<number>>();
  let duplicateEvents = 0;
  const sockets = new UserSockets(balancer, (session, event, atMs) => {
    if (!event.order) return;
    if (event.type === 'order.placed') {
      const seen = placedEvents.get(event.order.id) ?? [];
      if (seen.some((e) => e.session.id === session.id)) duplicateEvents += 1;
      seen.push({ session, atMs });
      placedEvents.set(event.order.id, seen);
    } else if (event.type === 'order.settled') {
      settledPushMs.push(performance.timeOrigin + atMs - Date.parse(event.order.deliverAt));
      const seen = settledEvents.get(event.order.id) ?? new Set<number>();
      settledEvents.set(event.order.id, seen.add(session.id));
    }
  });
  for (let i = 0; i < users.length; i += 50)
    await Promise.all(
      users.slice(i, i + 50).map((user, j) => sockets.connect(user, (i + j) % apiNodes.length)),
    );
  // Each node's NATS subscriptions for its sockets' user channels reach the server meanwhile.
  await sleep(500);
  const setupMs = performance.now() - runStarted;
  console.log(
    `${users.length} users, each with a socket (half on each node); traffic starts ${(setupMs / 1000).toFixed(1)} s into the run`,
  );

  // The traffic: client loops, each sending one order at a time for a random user.
  interface Op {
    uid: number;
    key: string;
    firstSentAtMs: number;
    answer?: Answer | null;
  }
  const ops: Op[] = [];
  const random = seededRandom(seed);
  let running = true;
  const trafficStartMs = performance.now();
  const loops = Array.from({ length: loopCount }, async () => {
    while (running) {
      const user = users[Math.floor(random() * users.length)] as (typeof users)[number];
      const op: Op = {
        uid: user.uid,
        key: `cluster-${crypto.randomUUID()}`,
        firstSentAtMs: performance.now(),
      };
      ops.push(op);
      op.answer = await balancer.post({
        path: '/api/v1/contracts/orders',
        token: user.token,
        key: op.key,
        body: {
          symbol: SYMBOLS[Math.floor(random() * SYMBOLS.length)],
          direction: random() < 0.5 ? 'up' : 'down',
          periodId,
          amount: STAKE,
          tradePassword: TRADE_PIN,
        },
      });
      // A refused order (no fresh price while the worker is down) is not sent again at once.
      if (op.answer?.code !== 0) await sleep(50);
    }
  });

  // The schedule: API node 1 at 20 % of the traffic (both nodes warm up serving first), node 2
  // once node 1 is back and 65 % has passed; the worker's kill at 40 %, on its own line (it
  // overlaps node 1's restart when that is slow, and always in a short run).
  const sinceStart = (fraction: number) =>
    sleep(Math.max(0, trafficStartMs + fraction * seconds * 1000 - performance.now()));
  const at = () => ((performance.now() - trafficStartMs) / 1000).toFixed(1);
  interface Restart {
    node: string;
    signalledAtMs: number;
    exitedAtMs: number;
    readyAtMs: number;
    exitStatus: number | string;
  }
  const restarts: Restart[] = [];
  async function rollApiNode(index: number): Promise<void> {
    const node = apiNodes[index] as ClusterProcess;
    const signalledAtMs = performance.now();
    console.log(`  ${at()} s: SIGTERM to ${node.name}`);
    const exitStatus = await node.stop();
    const exitedAtMs = performance.now();
    if (exitStatus !== 0) fail(`${node.name} exited with ${exitStatus} on SIGTERM`);
    await node.spawn();
    await node.waitReady();
    await balancer.waitReady(index);
    const readyAtMs = performance.now();
    restarts.push({ node: node.name, signalledAtMs, exitedAtMs, readyAtMs, exitStatus });
    console.log(
      `  ${at()} s: ${node.name} back in rotation (exited ${exitStatus} after ${ms(exitedAtMs - signalledAtMs)} ms, ready ${ms(readyAtMs - exitedAtMs)} ms after its start)`,
    );
  }
  // Set in crashWorker (a declared `let` assigned in a closure would read as never set).
  let workerCrash = undefined as
    | {
        killedAtMs: number;
        openOrdersAtKill: number;
        dueOrdersAtKill: number;
        backAfterMs: number;
        priceGapMs: number;
      }
    | undefined;
  async function crashWorker(): Promise<void> {
    const { rows } = await admin.query<{ open: string; due: string }>(
      `select count(*)::text as open, count(*) filter (where deliver_at <= now())::text as due from contract_orders where state = 'open'`,
    );
    const killedAtMs = performance.now();
    console.log(`  ${at()} s: kill -9 the worker (${rows[0]?.open} orders open)`);
    await worker.kill();
    const before = await lastTick();
    await sleep(WORKER_RESTART_DELAY_MS);
    const spawnedAtMs = performance.now();
    await worker.spawn();
    const firstTickAtMs = await waitForRecording(before.id);
    workerCrash = {
      killedAtMs,
      openOrdersAtKill: Number(rows[0]?.open),
      dueOrdersAtKill: Number(rows[0]?.due),
      backAfterMs: performance.now() - spawnedAtMs,
      priceGapMs: firstTickAtMs - before.atMs,
    };
    console.log(
      `  ${at()} s: the worker records prices again, ${ms(workerCrash.backAfterMs)} ms after its start (no price for ${ms(workerCrash.priceGapMs)} ms)`,
    );
  }
  const schedule = [
    (async () => {
      await sinceStart(0.2);
      await rollApiNode(0);
      await sinceStart(0.65);
      await rollApiNode(1);
    })(),
    (async () => {
      await sinceStart(0.4);
      await crashWorker();
    })(),
  ].map((step) => step.catch((error: unknown) => fail(`schedule: ${String(error)}`)));
  await Promise.all(schedule);
  // At least `seconds` of traffic, and 2 s more after the last restart.
  await sleep(Math.max(2_000, trafficStartMs + seconds * 1000 - performance.now()));
  // A cluster whose nodes counted nothing in Redis is not the one under test.
  const redisKeys = await redisCounters();
  if (redisKeys === 0) fail(`no rate-limit counter under ${prefix}: in Redis`);
  running = false;
  await Promise.all(loops);
  const trafficMs = performance.now() - trafficStartMs;
  console.log(`traffic over after ${(trafficMs / 1000).toFixed(1)} s: ${ops.length} orders sent`);

  // Recovery: the worker gets until the last order's delivery + RECOVERY_MS to settle everything.
  const settleStarted = performance.now();
  const { rows: dueRows } = await admin.query<{ at: number | null }>(
    'select extract(epoch from max(deliver_at)) * 1000 as at from contract_orders',
  );
  const lastDueMs = Number(dueRows[0]?.at ?? 0);
  while (Date.now() < lastDueMs + RECOVERY_MS + 250) {
    const { rows } = await admin.query<{ n: string }>(
      `select count(*)::text as n from contract_orders where state = 'open'`,
    );
    if (Number(rows[0]?.n) === 0) break;
    await sleep(250);
  }
  const { rows: stuckRows } = await admin.query<{ n: string }>(
    `select count(*)::text as n from contract_orders where state = 'open' and deliver_at < now() - make_interval(secs => $1)`,
    [RECOVERY_MS / 1000],
  );
  const stuck = Number(stuckRows[0]?.n);
  // The last settlements' events are on their way.
  await sleep(OPEN_AFTER_MS);
  const settleMs = performance.now() - settleStarted;
  sockets.close();
  await balancer.stopProbes();
  const stopStatus = await Promise.all(processes.map((child) => child.stop()));
  processes.forEach((child, i) => {
    if (child.role === 'api' && stopStatus[i] !== 0)
      fail(`${child.name} exited with ${stopStatus[i]} on the final SIGTERM`);
  });

  // The client's view.
  const answered = ops.filter((op) => op.answer);
  const lost = ops.filter((op) => op.answer === null);
  const accepted = answered.filter((op) => op.answer?.code === 0);
  const refusals: Record<string, number> = {};
  for (const op of answered)
    if (op.answer && op.answer.code !== 0) {
      const reason = `${op.answer.code} ${op.answer.message}`;
      refusals[reason] = (refusals[reason] ?? 0) + 1;
    }
  if (lost.length > 0)
    fail(
      `${lost.length} requests lost (no node answered after retries)`,
      lost.slice(0, 5).map((op) => op.key),
    );
  const orderIdOf = (op: Op) =>
    (op.answer?.data as { order?: { id?: string } } | undefined)?.order?.id;

  // Delivery of `order.placed`: from the request to the node that placed it until the event on
  // a socket of the user, cross-node (the socket on the other node) or same-node. Orders
  // answered on a retry are left out: the attempt that placed them is not the one answered.
  const sessionsOf = new Map<number, Session[]>();
  for (const session of sockets.sessions)
    sessionsOf.set(session.uid, [...(sessionsOf.get(session.uid) ?? []), session]);
  const crossNodeMs: number[] = [];
  const sameNodeMs: number[] = [];
  // The same, only for orders sent while both nodes were in rotation: the single-node
  // stretches of the restarts have no cross-node events, and their node has long been warm.
  const bothUpCrossNodeMs: number[] = [];
  const bothUpSameNodeMs: number[] = [];
  const inRotation = (node: number, atMs: number) =>
    balancer.changes.findLast((change) => change.node === node && change.atMs <= atMs)?.ready ===
    true;
  let missedCrossNode = 0;
  let missedSameNode = 0;
  for (const op of accepted) {
    const answer = op.answer as Answer;
    const events = placedEvents.get(orderIdOf(op) ?? '') ?? [];
    const bothUp = apiNodes.every((_, node) => inRotation(node, answer.sentAtMs));
    if (answer.attempts === 1)
      for (const event of events) {
        const same = event.session.node === answer.node;
        (same ? sameNodeMs : crossNodeMs).push(event.atMs - answer.sentAtMs);
        if (bothUp)
          (same ? bothUpSameNodeMs : bothUpCrossNodeMs).push(event.atMs - answer.sentAtMs);
      }
    for (const session of sessionsOf.get(op.uid) ?? []) {
      const expected =
        session.authedAtMs !== undefined &&
        session.authedAtMs <= op.firstSentAtMs - SIGNED_IN_BEFORE_MS &&
        (session.closedAtMs === undefined ||
          session.closedAtMs >= answer.answeredAtMs + OPEN_AFTER_MS);
      if (expected && !events.some((event) => event.session.id === session.id)) {
        if (session.node === answer.node) missedSameNode += 1;
        else missedCrossNode += 1;
      }
    }
  }
  if (crossNodeMs.length === 0) fail('no order.placed event crossed nodes: the relay carried none');
  const placement = stats(
    accepted.map((op) => (op.answer as Answer).answeredAtMs - op.firstSentAtMs),
  );
  const closes: Record<string, number> = {};
  for (const session of sockets.sessions)
    if (session.closeCode !== undefined && session.authedAtMs !== undefined)
      closes[session.closeCode] = (closes[session.closeCode] ?? 0) + 1;
  for (const problem of sockets.problems) fail(problem);

  // Per second of traffic: orders accepted and refused, to see each restart and the worker's gap.
  const perSecond = (list: Op[]) => {
    const counts = Array.from({ length: Math.ceil(trafficMs / 1000) }, () => 0);
    for (const op of list) {
      const second = Math.floor(((op.answer as Answer).answeredAtMs - trafficStartMs) / 1000);
      if (second < counts.length) counts[second] = (counts[second] ?? 0) + 1;
    }
    return counts;
  };
  const sinceTraffic = (atMs: number) => Number(((atMs - trafficStartMs) / 1000).toFixed(1));
  const restartReports = restarts.map((restart) => {
    const index = apiNodes.findIndex((node) => node.name === restart.node);
    const notReady = balancer.changes.find(
      (change) => change.node === index && !change.ready && change.atMs >= restart.signalledAtMs,
    );
    return {
      node: restart.node,
      atSecond: sinceTraffic(restart.signalledAtMs),
      outOfRotationAfterMs: notReady ? ms(notReady.atMs - restart.signalledAtMs) : null,
      exitStatus: restart.exitStatus,
      exitedAfterMs: ms(restart.exitedAtMs - restart.signalledAtMs),
      readyAfterStartMs: ms(restart.readyAtMs - restart.exitedAtMs),
      answeredWhileDraining: answered.filter(
        (op) =>
          op.answer?.node === index &&
          op.answer.answeredAtMs > restart.signalledAtMs &&
          op.answer.answeredAtMs < restart.exitedAtMs,
      ).length,
    };
  });

  // The database at rest.
  const uids = users.map((user) => user.uid);
  async function none(what: string, query: string, params: unknown[] = []) {
    const { rows } = await admin.query(query, params);
    if (rows.length > 0) fail(what, rows.slice(0, 10));
    return rows.length;
  }
  const { rows: orderRows } = await admin.query<{ id: string }>(
    'select id::text from contract_orders where user_id = any($1::bigint[])',
    [uids],
  );
  const dbIds = new Set(orderRows.map((row) => row.id));
  const { rows: keyRows } = await admin.query<{
    user_id: string;
    key: string;
    response: string | null;
  }>(
    'select user_id::text, key, response from idempotency_keys where user_id = any($1::bigint[])',
    [uids],
  );
  const stored = new Map(keyRows.map((row) => [`${row.user_id}/${row.key}`, row.response]));
  const keyIds: string[] = [];
  let ackedMissing = 0;
  let appliedUnanswered = 0;
  let refusedButPlaced = 0;
  for (const op of ops) {
    const response = stored.get(`${op.uid}/${op.key}`);
    const storedId =
      typeof response === 'string'
        ? (JSON.parse(response) as { order?: { id?: string } }).order?.id
        : undefined;
    if (storedId !== undefined) keyIds.push(storedId);
    if (op.answer?.code === 0) {
      if (storedId !== orderIdOf(op) || !dbIds.has(orderIdOf(op) ?? '')) ackedMissing += 1;
    } else if (op.answer === null) {
      if (storedId !== undefined) appliedUnanswered += 1;
    } else if (storedId !== undefined) refusedButPlaced += 1;
  }
  if (ackedMissing > 0) fail(`${ackedMissing} acknowledged orders missing or under another key`);
  if (refusedButPlaced > 0) fail(`${refusedButPlaced} orders refused to the client but placed`);
  // Every order has exactly one key and every key one order: no retry placed an order twice.
  const keyed = new Set(keyIds);
  const placedTwice = keyIds.length - keyed.size + [...dbIds].filter((id) => !keyed.has(id)).length;
  if (placedTwice > 0) fail(`${placedTwice} orders without a key of their own (placed twice?)`);
  await none(
    'order without exactly one open entry',
    `select o.id from contract_orders o left join ledger_entries e on e.reference = 'contract:' || o.id || ':open' group by o.id having count(e.id) <> 1`,
  );
  const settledTwice = await none(
    'order settled twice',
    `select reference, count(*) from ledger_entries where reference like 'contract:%:settle' group by reference having count(*) > 1`,
  );
  await none(
    'settled order without exactly one settlement entry, or a settlement of an order not settled',
    `select o.id, o.state, count(e.id) from contract_orders o left join ledger_entries e on e.reference = 'contract:' || o.id || ':settle'
     group by o.id, o.state having count(e.id) <> (case when o.state = 'settled' then 1 else 0 end)`,
  );
  if (stuck > 0) fail(`${stuck} orders still open ${RECOVERY_MS / 1000} s past delivery`);
  const { rows: settlementRows } = await admin.query<{
    settled: string;
    open: string;
    p50: number | null;
    p99: number | null;
    max: number | null;
  }>(
    `select count(*) filter (where state = 'settled')::text as settled, count(*) filter (where state = 'open')::text as open,
       percentile_cont(0.5) within group (order by extract(epoch from settled_at - deliver_at) * 1000) as p50,
       percentile_cont(0.99) within group (order by extract(epoch from settled_at - deliver_at) * 1000) as p99,
       max(extract(epoch from settled_at - deliver_at) * 1000) as max
     from contract_orders`,
  );
  // `order.settled` comes from the worker: every socket of the user signed in before the
  // settlement and open after it should have it.
  const { rows: settledRows } = await admin.query<{ id: string; uid: string; at: number }>(
    `select id::text, user_id::text as uid, extract(epoch from settled_at) * 1000 as at
     from contract_orders where state = 'settled' and user_id = any($1::bigint[])`,
    [uids],
  );
  let missedSettled = 0;
  for (const row of settledRows) {
    const settledAtMs = Number(row.at) - performance.timeOrigin;
    const seen = settledEvents.get(row.id);
    for (const session of sessionsOf.get(Number(row.uid)) ?? [])
      if (
        session.authedAtMs !== undefined &&
        session.authedAtMs <= settledAtMs - SIGNED_IN_BEFORE_MS &&
        (session.closedAtMs === undefined || session.closedAtMs >= settledAtMs + OPEN_AFTER_MS) &&
        !seen?.has(session.id)
      )
        missedSettled += 1;
  }
  const { rows: outcomeRows } = await admin.query<{ outcome: string | null; n: string }>(
    'select outcome, count(*)::text as n from contract_orders group by outcome order by outcome',
  );
  await admin.end();
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const violations = await checkLedger(database.db, LOCKED_FUND_OBLIGATIONS);
  await database.close();
  for (const violation of violations) fail(`ledger: ${violation.rule}`, violation.detail);

  const settlement = settlementRows[0];
  const result = {
    ...runStamp(),
    node: process.version,
    seed,
    short,
    seconds,
    users: userCount,
    clientLoops: loopCount,
    periodSeconds: PERIOD_SECONDS,
    drainMs: DRAIN_MS,
    durationSeconds: Math.round((performance.now() - runStarted) / 1000),
    phasesSeconds: {
      migrate: Number((migrateMs / 1000).toFixed(1)),
      setup: Number((setupMs / 1000).toFixed(1)),
      traffic: Number((trafficMs / 1000).toFixed(1)),
      settle: Number((settleMs / 1000).toFixed(1)),
    },
    orders: {
      sent: ops.length,
      accepted: accepted.length,
      acceptedPerSecond: Math.round(accepted.length / (trafficMs / 1000)),
      refused: answered.length - accepted.length,
      refusals,
      lost: lost.length,
      answeredOnRetry: answered.filter((op) => (op.answer as Answer).attempts > 1).length,
      appliedUnanswered,
      placement,
    },
    retriedAttempts: Object.fromEntries(balancer.failures),
    events: {
      measured:
        'order.placed on the user channel: from the request to the node that placed the order to the event on a socket of the user',
      crossNode: stats(crossNodeMs),
      sameNode: stats(sameNodeMs),
      whileBothNodesUp: { crossNode: stats(bothUpCrossNodeMs), sameNode: stats(bothUpSameNodeMs) },
      missedOnSignedInSockets: {
        placedCrossNode: missedCrossNode,
        placedSameNode: missedSameNode,
        settled: missedSettled,
      },
      deliveredTwice: duplicateEvents,
      settledPushedAfterDelivery: stats(settledPushMs),
    },
    sockets: {
      users: users.length,
      sessions: sockets.sessions.length,
      closedBy: closes,
      reconnectGap: stats(sockets.gapsMs),
    },
    restarts: restartReports,
    // Beside the restarts, a node the probes took out (a probe unanswered within 1 s on a busy machine).
    outOfRotation: apiNodes.map(
      (node, i) =>
        balancer.changes.filter((change) => change.node === i && !change.ready).length -
        restarts.filter((restart) => restart.node === node.name).length,
    ),
    workerKill: workerCrash && {
      atSecond: sinceTraffic(workerCrash.killedAtMs),
      openOrdersAtKill: workerCrash.openOrdersAtKill,
      dueOrdersAtKill: workerCrash.dueOrdersAtKill,
      recordingAgainAfterStartMs: ms(workerCrash.backAfterMs),
      noPriceForMs: ms(workerCrash.priceGapMs),
    },
    settlement: {
      settled: Number(settlement?.settled),
      open: Number(settlement?.open),
      stuck,
      settledTwice,
      lagAfterDelivery: {
        p50Ms: ms(Number(settlement?.p50)),
        p99Ms: ms(Number(settlement?.p99)),
        maxMs: ms(Number(settlement?.max)),
      },
      outcomes: Object.fromEntries(
        outcomeRows.map((row) => [row.outcome ?? 'open', Number(row.n)]),
      ),
    },
    invariants: violations.length === 0 ? 'hold' : violations,
    redisCountersAtTrafficEnd: redisKeys,
    timeline: {
      acceptedPerSecond: perSecond(accepted),
      refusedPerSecond: perSecond(answered.filter((op) => op.answer?.code !== 0)),
    },
    pass: failures.length === 0,
    failures,
  };
  if (fullRun) {
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/cluster.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
  }
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `\ncluster: ${result.orders.acceptedPerSecond} orders/s accepted (${accepted.length} of ${ops.length}), lost ${lost.length}; ` +
      `order.placed cross-node p50 ${result.events.crossNode.p50Ms} ms, p99 ${result.events.crossNode.p99Ms} ms ` +
      `(same node p50 ${result.events.sameNode.p50Ms}, p99 ${result.events.sameNode.p99Ms}); ` +
      `settled twice ${settledTwice}, stuck ${stuck}, invariants ${violations.length === 0 ? 'hold' : 'BROKEN'}; ` +
      `${result.durationSeconds} s in all`,
  );
} catch (error) {
  fail(`the bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  for (const child of processes) child.killNow();
} finally {
  for (const child of processes) child.removeDataDir();
}
if (failures.length > 0)
  console.error(
    `bench:cluster FAILED (seed ${seed}):\n${failures.map((f) => `  - ${f}`).join('\n')}`,
  );
// After a failure the probes, sockets or database client may still hold the event loop.
process.exit(failures.length > 0 ? 1 : 0);
