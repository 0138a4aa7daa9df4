// bench/settlement: 10,000 instant-contract orders due within the same second, settled by
// a worker process (ROLE=worker) on PostgreSQL. Every one must settle, once; the lag is
// settled_at − deliver_at (settled_at: when the worker writes the result, after its claim).
// Target (issue 4): lag p50 ≤ 100 ms, p99 ≤ 1 s. Also measured: when each "order settled"
// event reaches another process through the relay (after the commit), as an API process
// would push it to the owner's socket.
//
//   node --import tsx bench/settlement/run.ts [--orders 10000] [--users 100]
//
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { InstrumentSymbol } from '@tradewind/contract/market';
import pg from 'pg';
import { type PlaceRequest, placeBatch } from '../../apps/server/src/modules/contracts/batcher.ts';
import { checkLedger } from '../../apps/server/src/modules/ledger/invariants.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../../apps/server/src/obligations.ts';
import {
  Ledger,
  ensureAssets,
  externalAccount,
  userAccount,
} from '../../apps/server/src/modules/ledger/service.ts';
import type { FeedPrice, MarketFeed } from '../../apps/server/src/modules/market/feed.ts';
import { MarketRecorder } from '../../apps/server/src/modules/market/recorder.ts';
import { ensureInstruments } from '../../apps/server/src/modules/market/service.ts';
import { ManualClock } from '../../apps/server/src/platform/clock.ts';
import { openDatabase, pipelinedTransaction } from '../../apps/server/src/platform/db.ts';
import { PgRelay } from '../../apps/server/src/platform/relay.ts';
import { HUB_TOPIC, Hub } from '../../apps/server/src/platform/ws.ts';
import { ROOT, freshDatabase, runStamp } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000' },
    users: { type: 'string', default: '100' },
  },
});
const orderCount = Number(values.orders);
const userCount = Number(values.users);

const databaseUrl = await freshDatabase('tw_bench_settlement');
const database = await openDatabase({ databaseUrl, poolSize: 4 });
await database.migrate();
await ensureAssets(database.db);
await ensureInstruments(database.db);
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();

// Traders, made directly in the database (nobody signs in here), each with a funded futures
// account, KYC passed and a trading password set (spec §5; the batch checks both are there,
// the password itself is checked before a request reaches it).
const { rows: created } = await admin.query<{ id: string }>(
  `insert into users (email, email_verified, verified, password_hash, nickname, invite_code, language, created_at, updated_at)
   select 'settle' || n || '@example.com', true, true, 'not-a-password', 'settle' || n, 'S' || lpad(n::text, 7, '0'), 'en', now(), now()
   from generate_series(1, $1::int) as n returning id::text`,
  [userCount],
);
const userIds = created.map((row) => Number(row.id));
await admin.query(
  `insert into money_passwords (user_id, kind, password_hash, created_at, updated_at)
   select id, 'trade', 'not-a-password', now(), now() from unnest($1::bigint[]) as u(id)`,
  [userIds],
);
const ledger = new Ledger();
await database.db.transaction((tx) =>
  ledger.postMany(
    tx,
    new Date(),
    userIds.map((userId) => ({
      kind: 'bench_funding',
      reference: `bench:fund:${userId}`,
      userId,
      postings: [
        {
          account: externalAccount('demo', 'USDT'),
          amount: -1_000_000_000_000n,
          type: 'deposit' as const,
        },
        {
          account: userAccount(userId, 'futures', 'USDT'),
          amount: 1_000_000_000_000n,
          type: 'deposit' as const,
        },
      ],
    })),
  ),
);

// Orders accepted over one second a few seconds ago, on recorded ticks of that time, with a
// 30 s period: they all come due within the same second, 25 s from now.
const SYMBOLS: InstrumentSymbol[] = ['BTCUSDT', 'ETHUSDT'];
const acceptedFrom = Math.floor(Date.now() / 1000) * 1000 - 5_000;
class StartFeed implements MarketFeed {
  readonly source = 'simulated';
  sample(): FeedPrice[] {
    return [
      { instrument: 'BTCUSDT', priceMinor: 9_500_000n },
      { instrument: 'ETHUSDT', priceMinor: 330_000n },
    ];
  }
}
const clock = new ManualClock(acceptedFrom);
const recorder = new MarketRecorder({ db: database.db, clock, feed: new StartFeed() });
await recorder.recordOnce(new Date(acceptedFrom - 1_000));
await recorder.recordOnce(new Date(acceptedFrom));

// 100 open orders a trader: the install-wide limit, as a first start with
// CONTRACT_MAX_OPEN_ORDERS=1000 in its environment seeds it (modules/settings).
await admin.query(
  `insert into shared_settings (name, value, set_by, set_at) values ('CONTRACT_MAX_OPEN_ORDERS', '1000', 'environment', now())`,
);
const deps = {
  db: database.db,
  clock,
  ledger,
  hub: new Hub(),
  isTradable: () => true,
};
const batchSize = 64;
const batches = Math.ceil(orderCount / batchSize);
const placingStarted = performance.now();
let placed = 0;
for (let b = 0; b < batches; b++) {
  const now = new Date(acceptedFrom + Math.floor((b * 1000) / batches));
  const requests: PlaceRequest[] = [];
  for (let i = b * batchSize; i < Math.min(orderCount, (b + 1) * batchSize); i++) {
    requests.push({
      userId: userIds[i % userIds.length] as number,
      key: `settle-bench-${i}`,
      hash: crypto.randomUUID(),
      body: {
        symbol: SYMBOLS[i % 2] as InstrumentSymbol,
        direction: i % 3 ? 'up' : 'down',
        periodId: 1,
        amount: String(10 + (i % 50)),
        tradePassword: '480316',
      },
      stakeMinor: BigInt(10 + (i % 50)) * 1_000_000n,
      lang: 'en',
    });
  }
  const results = await pipelinedTransaction(database.db, (tx) =>
    placeBatch(deps, tx, now, requests),
  );
  for (const result of results) {
    if ('error' in result) throw result.error;
    placed += 1;
  }
}
const { rows: window } = await admin.query<{ first: Date; last: Date }>(
  'select min(deliver_at) as first, max(deliver_at) as last from contract_orders',
);
console.log(
  `placed ${placed} orders in ${((performance.now() - placingStarted) / 1000).toFixed(1)} s; due ${window[0]?.first.toISOString()} … ${window[0]?.last.toISOString()}`,
);

// Listening as an API process would: when does each order's "settled" event arrive?
const pushedAt = new Map<string, number>();
const relay = new PgRelay({
  connect: async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return client;
  },
});
relay.on(HUB_TOPIC, (payload) => {
  const at = Date.now();
  const event = JSON.parse(payload.slice(payload.indexOf('\n') + 1)) as {
    data?: { type?: string; order?: { id?: string } };
  };
  if (event.data?.type === 'order.settled' && event.data.order?.id)
    pushedAt.set(event.data.order.id, at);
});
await relay.start();

// The worker process: the market recorder (continuing the recorded prices) and the settlement worker.
// BENCH_SERVER_NODE_ARGS='--cpu-prof' profiles the worker, as for bench/orders.
const workerArgs = [
  ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  '--import',
  'tsx',
  'apps/server/src/main.ts',
];
const worker: ChildProcess = spawn(process.execPath, workerArgs, {
  cwd: ROOT,
  env: {
    ...process.env,
    ROLE: 'worker',
    DATABASE_URL: databaseUrl,
    DEMO_MODE: 'true',
    DEMO_HISTORY_DAYS: '0',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const lastDue = window[0]?.last.getTime() ?? Date.now();
const deadline = lastDue + 60_000;
let open = orderCount;
while (Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 250));
  const { rows } = await admin.query<{ n: string }>(
    "select count(*)::text as n from contract_orders where state = 'open'",
  );
  open = Number(rows[0]?.n);
  if (open === 0) break;
}
await new Promise<void>((resolve) => {
  worker.once('exit', () => resolve());
  worker.kill('SIGTERM');
});

const { rows: stats } = await admin.query<{
  settled: string;
  p50: number;
  p99: number;
  max: number;
  outcomes: Record<string, number>;
}>(
  `select count(*)::text as settled,
          percentile_disc(0.5) within group (order by lag) as p50,
          percentile_disc(0.99) within group (order by lag) as p99,
          max(lag) as max,
          (select json_object_agg(outcome, n) from (select outcome, count(*) as n from contract_orders where state = 'settled' group by outcome) o) as outcomes
   from (select (extract(epoch from settled_at - deliver_at) * 1000)::float8 as lag from contract_orders where state = 'settled') s`,
);
const { rows: entries } = await admin.query<{ n: string; once: boolean }>(
  `select count(*)::text as n, count(*) = count(distinct reference) as once from ledger_entries where reference like 'contract:%:settle'`,
);
const { rows: delivered } = await admin.query<{ id: string; deliver_ms: number }>(
  `select id::text, (extract(epoch from deliver_at) * 1000)::float8 as deliver_ms from contract_orders where state = 'settled'`,
);
await relay.close();
const pushedLags = delivered
  .flatMap((row) =>
    pushedAt.has(row.id) ? [(pushedAt.get(row.id) as number) - row.deliver_ms] : [],
  )
  .sort((a, b) => a - b);
const quantile = (q: number) =>
  pushedLags[Math.min(pushedLags.length - 1, Math.floor(q * pushedLags.length))] ?? Number.NaN;
await admin.end();
// Open orders hold their stake + fee locked: the checker must know (the server registers these at start).
const violations = await checkLedger(database.db, LOCKED_FUND_OBLIGATIONS);
await database.close();

const row = stats[0];
const result = {
  ...runStamp(),
  orders: orderCount,
  dueWithin: `${window[0]?.first.toISOString()} … ${window[0]?.last.toISOString()}`,
  settled: Number(row?.settled),
  stillOpen: open,
  settlementEntries: Number(entries[0]?.n),
  eachSettledOnce: entries[0]?.once === true && Number(entries[0]?.n) === Number(row?.settled),
  outcomes: row?.outcomes,
  lagMs: {
    p50: Number(row?.p50?.toFixed(1)),
    p99: Number(row?.p99?.toFixed(1)),
    max: Number(row?.max?.toFixed(1)),
  },
  pushedLagMs: {
    received: pushedLags.length,
    p50: Math.round(quantile(0.5)),
    p99: Math.round(quantile(0.99)),
    max: Math.round(pushedLags.at(-1) ?? Number.NaN),
  },
  target: { p50Ms: 100, p99Ms: 1000 },
  invariants: violations.length === 0 ? 'hold' : violations,
};
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/settlement.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
if (violations.length > 0 || open > 0 || !result.eachSettledOnce) process.exitCode = 1;
