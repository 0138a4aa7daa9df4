// bench/orders: instant-contract orders placed per second through the HTTP API on
// PostgreSQL, beside pgbench's rate for the same hot-path transaction, measured in the
// same run. Target (issue 4): API rate ≥ 1.0× pgbench's, p99 ≤ 50 ms at 100 connections.
//
//   node --import tsx bench/orders/run.ts [--seconds 15] [--concurrency 100] [--users 200]
//
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and pgbench.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { checkLedger } from '../../apps/server/src/modules/ledger/invariants.ts';
import { Ledger, externalAccount, userAccount } from '../../apps/server/src/modules/ledger/service.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { ROOT, freshDatabase, load, pgbenchTps, registerUser, startServer } from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '100' },
    users: { type: 'string', default: '200' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const userCount = Number(values.users);

const databaseUrl = await freshDatabase('tw_bench_orders');
// Orders of 300 s: none is delivered during the run, so settlement does not share the machine with it.
// Each user may hold many open orders here (the default cap of 20 would stop the run).
const server = await startServer(databaseUrl, { ROLE: 'all', CONTRACT_MAX_OPEN_ORDERS: '1000' });
console.log(`server on ${server.baseUrl}; registering ${userCount} users`);

const users: { token: string; uid: number }[] = [];
for (let i = 0; i < userCount; i++) users.push(await registerUser(server.baseUrl, `bench${i}@example.com`));

const database = await openDatabase({ databaseUrl, poolSize: 2 });
const ledger = new Ledger();
for (const user of users) {
  await database.db.transaction((tx) =>
    ledger.post(tx, new Date(), {
      kind: 'bench_funding',
      reference: `bench:fund:${user.uid}`,
      userId: user.uid,
      postings: [
        { account: externalAccount('demo', 'USDT'), amount: -1_000_000_000_000n, type: 'deposit' },
        { account: userAccount(user.uid, 'futures', 'USDT'), amount: 1_000_000_000_000n, type: 'deposit' },
      ],
    }),
  );
}

// The recorder of the server process records a tick per instrument each second; wait for a fresh one.
for (let i = 0; i < 50; i++) {
  const prices = (await (await fetch(`${server.baseUrl}/api/v1/market/prices`)).json()) as { data: { items: { instrument: string; price: string | null }[] } };
  if (prices.data.items.find((p) => p.instrument === 'BTCUSDT')?.price) break;
  await new Promise((r) => setTimeout(r, 200));
}

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT'];
const place = async (i: number) => {
  const user = users[i % users.length] as { token: string };
  const response = await fetch(`${server.baseUrl}/api/v1/contracts/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}`, 'idempotency-key': `bench-${crypto.randomUUID()}` },
    body: JSON.stringify({ symbol: SYMBOLS[i % SYMBOLS.length], direction: i % 2 ? 'up' : 'down', periodId: 4, amount: '10' }),
  });
  const reply = (await response.json()) as { code: number; message: string };
  if (reply.code !== 0 && i % 1000 === 0) console.error(`order refused: ${reply.code} ${reply.message}`);
  return reply.code === 0;
};
await load(3, concurrency, place);
const ordersBefore = await countOrders();
const api = await load(seconds, concurrency, place);
const batches = await batchesOf(ordersBefore);
await server.stop();
console.log(`API: ${Math.round(api.rate)} orders/s, p50 ${api.p50.toFixed(1)} ms, p99 ${api.p99.toFixed(1)} ms, ${api.failed} failed; ${batches.transactions} transactions (${batches.meanBatch} orders each)`);

async function countOrders(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ n: string }>('select count(*)::text as n from contract_orders');
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
await admin.query(`create table bench_tick as select id as tick_id, price_minor as tick_price, ts as tick_ts from market_ticks where instrument = 'BTCUSDT' order by ts desc limit 1`);
await admin.query('create sequence bench_seq');
await admin.end();
const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pgbench-')), 'orders.sql');
fs.writeFileSync(
  script,
  `\\set n random(1, ${userCount})
BEGIN;
SELECT u.user_id, u.account_id, t.tick_id, t.tick_price, t.tick_ts, nextval('bench_seq') AS seq FROM bench_users u CROSS JOIN bench_tick t WHERE u.n = :n \\gset
INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (:user_id, 'pgb-' || :seq::text, 'h', now()) ON CONFLICT DO NOTHING;
SELECT available FROM ledger_accounts WHERE id = :account_id FOR UPDATE;
INSERT INTO contract_orders (public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor, created_at, deliver_at)
  VALUES (lpad(:seq::text, 22, 'p'), :user_id::bigint, 'BTCUSDT', 'up', 300, 920000, 2000, 10000000, 20000, :tick_id::bigint, :tick_price::numeric, :tick_ts::timestamptz, :tick_ts::timestamptz + interval '300 seconds') RETURNING id AS order_id \\gset
INSERT INTO ledger_entries (kind, reference, user_id, created_at) VALUES ('contract_open', 'contract:' || :order_id::text || ':open', :user_id, now()) RETURNING id AS entry_id \\gset
INSERT INTO ledger_postings (entry_id, account_id, user_id, wallet, asset, bucket, type, amount, created_at) VALUES (:entry_id, :account_id, :user_id, 'futures', 'USDT', 'available', 'position_margin', -10020000, now()), (:entry_id, :account_id, :user_id, 'futures', 'USDT', 'locked', 'position_margin', 10020000, now());
UPDATE idempotency_keys SET response = '{}' WHERE user_id = :user_id AND key = 'pgb-' || :seq::text;
END;
`,
);
let pgbenchOutput: string;
try {
  pgbenchOutput = execFileSync('/usr/bin/pgbench', ['-n', '-M', 'prepared', '-c', '8', '-j', '2', '-T', String(seconds), '-f', script, databaseUrl], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
} catch (error) {
  console.error(String((error as { stderr?: Buffer }).stderr ?? error));
  throw new Error('pgbench failed');
}
const pgbench = pgbenchTps(pgbenchOutput);

const violations = await checkLedger(database.db);
await database.close();

const result = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))),
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
fs.writeFileSync(path.join(ROOT, 'bench/results/orders.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
if (violations.length > 0 || api.failed > 0) process.exitCode = 1;
