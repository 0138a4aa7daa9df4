// bench/orders: instant-contract orders placed per second through the HTTP API on
// PostgreSQL, beside pgbench's rate for the same hot-path transaction, measured in the
// same run. Target (issue 4): API rate ≥ 1.0× pgbench's, p99 ≤ 50 ms at 100 connections.
//
//   node --import tsx bench/orders/run.ts [--seconds 15] [--concurrency 100] [--users 8000]
//
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and pgbench.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { checkLedger } from '../../apps/server/src/modules/ledger/invariants.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../../apps/server/src/obligations.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { ROOT, freshDatabase, load, pgbenchTps, runStamp, startServer } from '../lib/harness.ts';
import { orderPlacer } from '../lib/orders.ts';
import { createTraders, waitForPrices } from '../lib/traders.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '100' },
    users: { type: 'string', default: '8000' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const userCount = Number(values.users);

const databaseUrl = await freshDatabase('tw_bench_orders');
// Orders of 300 s: none is delivered during the run, so settlement does not share the machine with it.
const server = await startServer(
  databaseUrl,
  { ROLE: 'all' },
  process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
);
console.log(`server on ${server.baseUrl}; creating ${userCount} users`);

// Users as real traders are: each holds at most the default 20 open orders, so the run
// needs thousands of them, each with 1,000,000 USDT in the futures account.
const users = await createTraders(server.baseUrl, databaseUrl, 'bench', userCount, [
  { wallet: 'futures', asset: 'USDT', amountMinor: 1_000_000_000_000n },
]);
await waitForPrices(server.baseUrl);

const { place, close: closePool } = orderPlacer(server.baseUrl, users, concurrency);
await load(3, concurrency, place);
const ordersBefore = await countOrders();
const api = await load(seconds, concurrency, place);
const batches = await batchesOf(ordersBefore);
closePool();
await server.stop();
console.log(
  `API: ${Math.round(api.rate)} orders/s, p50 ${api.p50.toFixed(1)} ms, p99 ${api.p99.toFixed(1)} ms, ${api.failed} failed; ${batches.transactions} transactions (${batches.meanBatch} orders each)`,
);

async function countOrders(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ n: string }>(
    'select count(*)::text as n from contract_orders',
  );
  await client.end();
  return Number(rows[0]?.n);
}

/** A batch's orders share its acceptance instant: distinct instants of the run's orders ≈ its transactions. */
async function batchesOf(afterCount: number): Promise<{ transactions: number; meanBatch: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ n: string; batches: string }>(
    'select count(*)::text as n, count(distinct created_at)::text as batches from (select created_at from contract_orders order by id offset $1) o',
    [afterCount],
  );
  await client.end();
  const n = Number(rows[0]?.n);
  const transactions = Number(rows[0]?.batches);
  return { transactions, meanBatch: Number((n / Math.max(1, transactions)).toFixed(1)) };
}

// pgbench: the transaction the API commits for each order (idempotency key, the locked
// balance row, the order with its open-tick checks, the ledger entry and its two postings
// whose triggers move the balance, the stored reply), as prepared statements on 8 clients.
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`create table bench_users as
  select row_number() over (order by a.user_id) as n, a.user_id, a.id as account_id
  from ledger_accounts a where a.kind = 'user' and a.wallet = 'futures' and a.asset = 'USDT' and a.user_id in (${users.map((u) => u.uid).join(',')})`);
// Looked up by n, as the API looks a user up by its id: by an index, not a scan of every row.
await admin.query('alter table bench_users add primary key (n)');
await admin.query('analyze bench_users');
await admin.query(
  `create table bench_tick as select id as tick_id, price_minor as tick_price, ts as tick_ts from market_ticks where instrument = 'BTCUSDT' order by ts desc limit 1`,
);
await admin.query('create sequence bench_seq');
await admin.end();
const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pgbench-')), 'orders.sql');
fs.writeFileSync(
  script,
  `\\set n random(1, ${userCount})
BEGIN;
SELECT u.user_id, u.account_id, t.tick_id, t.tick_price, t.tick_ts, nextval('bench_seq') AS seq FROM bench_users u CROSS JOIN bench_tick t WHERE u.n = :n::int \\gset
INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (:user_id::bigint, 'pgb-' || :seq::text, 'h', now()) ON CONFLICT DO NOTHING;
SELECT available FROM ledger_accounts WHERE id = :account_id::bigint FOR NO KEY UPDATE;
INSERT INTO contract_orders (public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor, created_at, deliver_at)
  VALUES (lpad(:seq::text, 22, 'p'), :user_id::bigint, 'BTCUSDT', 'up', 300, 920000, 2000, 10000000, 20000, :tick_id::bigint, :tick_price::numeric, :tick_ts::timestamptz, :tick_ts::timestamptz + interval '300 seconds') RETURNING id AS order_id \\gset
INSERT INTO ledger_entries (kind, reference, user_id, created_at) VALUES ('contract_open', 'contract:' || :order_id::text || chr(58) || 'open', :user_id::bigint, now()) RETURNING id AS entry_id \\gset
INSERT INTO ledger_postings (entry_id, account_id, user_id, wallet, asset, bucket, type, amount, created_at) VALUES (:entry_id::bigint, :account_id::bigint, :user_id::bigint, 'futures', 'USDT', 'available', 'position_margin', -10020000, now()), (:entry_id::bigint, :account_id::bigint, :user_id::bigint, 'futures', 'USDT', 'locked', 'position_margin', 10020000, now());
UPDATE idempotency_keys SET response = '{}' WHERE user_id = :user_id::bigint AND key = 'pgb-' || :seq::text;
END;
`,
);
let pgbenchOutput: string;
try {
  pgbenchOutput = execFileSync(
    '/usr/bin/pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      '8',
      '-j',
      '2',
      '-T',
      String(seconds),
      '-f',
      script,
      databaseUrl,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  ).toString();
} catch (error) {
  console.error(String((error as { stderr?: Buffer }).stderr ?? error));
  throw new Error('pgbench failed', { cause: error });
}
const pgbench = pgbenchTps(pgbenchOutput);

// Open orders hold their stake + fee locked: the checker must know (the server registers these at start).
const database = await openDatabase({ databaseUrl, poolSize: 2 });
const violations = await checkLedger(database.db, LOCKED_FUND_OBLIGATIONS);
await database.close();

const result = {
  ...runStamp(),
  seconds,
  concurrency,
  users: userCount,
  api: {
    ordersPerSecond: Math.round(api.rate),
    ok: api.ok,
    failed: api.failed,
    p50Ms: Number(api.p50.toFixed(1)),
    p99Ms: Number(api.p99.toFixed(1)),
    transactions: batches.transactions,
    meanOrdersPerTransaction: batches.meanBatch,
  },
  pgbench: { tps: Math.round(pgbench), clients: 8, mode: 'prepared' },
  ratio: Number((api.rate / pgbench).toFixed(2)),
  target: { ratio: 1.0, p99Ms: 50 },
  invariants: violations.length === 0 ? 'hold' : violations,
};
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/orders.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
if (violations.length > 0 || api.failed > 0) process.exitCode = 1;
