// bench/chaos: crash safety (issue 8). On PostgreSQL, mixed traffic (contract orders, spot ↔
// futures transfers, conversions, withdrawal requests, miner rentals whose daily payouts
// fall due every 2 s) goes through the HTTP API while the server process (API + workers) is
// killed with SIGKILL at random moments and restarted, `--kills` times. The client keeps
// every reply. A request whose reply never came is retried after the restart with the same
// Idempotency-Key, or abandoned. Pass: every acknowledged operation is in the database
// exactly once, nothing unacknowledged twice, no order settled twice, no mining day paid
// twice, the ledger's invariants hold, nothing left pending past its recovery time. One
// restart in ten is also killed mid-boot (extra to the count).
//
//   node --import tsx bench/chaos/run.ts [--kills 100] [--seed N] [--users 20] [--loops 8]
//
// The seed drives the traffic mix and the kill moments (printed, so a run can be replayed;
// the server's own timing still varies). Only a full run (--kills ≥ 100) writes
// bench/results/chaos.json: the short CI run (--kills 10) checks the same and records nothing.
// Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { checkLedger } from '../../apps/server/src/modules/ledger/invariants.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../../apps/server/src/obligations.ts';
import {
  Ledger,
  externalAccount,
  userAccount,
} from '../../apps/server/src/modules/ledger/service.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { MINING_RENTAL_STATUS } from '@tradewind/contract/mining';
import {
  ROOT,
  type ServerProcess,
  freshDatabase,
  percentile,
  registerUser,
  runStamp,
  seededRandom,
  spawnServer,
  startServer,
} from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    seed: { type: 'string' },
    users: { type: 'string', default: '20' },
    loops: { type: 'string', default: '8' },
  },
});
const kills = Number(values.kills);
const seed = values.seed === undefined ? crypto.randomInt(2 ** 31) : Number(values.seed);
const userCount = Number(values.users);
const loopCount = Number(values.loops);
const FULL_RUN_KILLS = 100;
/** How long after its due moment an order or a mining day may still be unsettled after a restart. */
const RECOVERY_MS = 10_000;
const MINING_DAY_SECONDS = 2;
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const PASSWORD = 'bench-password-1';
console.log(
  `bench:chaos seed ${seed} (replay: --seed ${seed}), ${kills} kills, ${userCount} users, ${loopCount} client loops`,
);

const random = seededRandom(seed);
const between = (min: number, max: number) => min + random() * (max - min);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The server: API and every worker in one process, a mining day of 2 s (rentals auto-start,
// so payouts fall due all the time and a kill lands mid-payout now and then).
const databaseUrl = await freshDatabase('tw_bench_chaos');
const SERVER_ENV = {
  ROLE: 'all',
  LOG_LEVEL: 'error',
  MINING_DAY_SECONDS: String(MINING_DAY_SECONDS),
  MINING_AUTO_APPROVE: 'true',
};
const bootMs: number[] = [];
async function boot(): Promise<ServerProcess> {
  const started = performance.now();
  const server = await startServer(databaseUrl, SERVER_ENV);
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    throw new Error(
      `the server exited at boot (${server.child.exitCode ?? server.child.signalCode})`,
    );
  bootMs.push(performance.now() - started);
  return server;
}

// Setup (not under test): users registered through the API, marked verified (KYC) and given
// a withdrawal and a trading password, funded directly through the ledger with spot USDT and BTC and futures USDT.
let server = await boot();
// Interrupted (Ctrl-C), the bench takes its server down with it rather than leave it running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.child.kill('SIGKILL');
    process.exit(130);
  });
}
const database = await openDatabase({ databaseUrl, poolSize: 2 });
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
interface User {
  uid: number;
  token: string;
}
const users: User[] = [];
for (let i = 0; i < userCount; i++)
  users.push(await registerUser(server.baseUrl, `chaos${i}@example.com`));
await admin.query('update users set verified = true where id = any($1::bigint[])', [
  users.map((u) => u.uid),
]);
for (const user of users) {
  for (const kind of ['withdraw', 'trade'] as const) {
    const reply = await call(server.baseUrl, user, '/api/v1/money-passwords', {
      kind,
      proof: 'login_password',
      loginPassword: PASSWORD,
      password: PIN,
      confirmPassword: PIN,
    });
    if (reply.code !== 0) throw new Error(`${kind} password: ${reply.message}`);
  }
}
const ledger = new Ledger();
const FUNDS = [
  { wallet: 'spot', asset: 'USDT', amount: 10_000_000_000_000n },
  { wallet: 'futures', asset: 'USDT', amount: 10_000_000_000_000n },
  { wallet: 'spot', asset: 'BTC', amount: 100_000_000_000n },
] as const;
await database.db.transaction((tx) =>
  ledger.postMany(
    tx,
    new Date(),
    users.flatMap((user) =>
      FUNDS.map((fund) => ({
        kind: 'bench_funding',
        reference: `bench:chaos:${user.uid}:${fund.wallet}:${fund.asset}`,
        userId: user.uid,
        postings: [
          {
            account: externalAccount('demo', fund.asset),
            amount: -fund.amount,
            type: 'deposit' as const,
          },
          {
            account: userAccount(user.uid, fund.wallet, fund.asset),
            amount: fund.amount,
            type: 'deposit' as const,
          },
        ],
      })),
    ),
  ),
);
const contractConfig = (await get(
  server.baseUrl,
  users[0] as User,
  '/api/v1/contracts/config',
)) as { periods: { id: number; seconds: number; minStake: string }[] };
const period = contractConfig.periods.find((p) => p.seconds === 30) ?? contractConfig.periods[0];
if (!period) throw new Error('no contract period');
const contractPeriod = period;
const products = (
  (await get(server.baseUrl, users[0] as User, '/api/v1/mining/products')) as {
    items: { id: string; periodDays: number; unitPrice: string; minInvestment: string }[];
  }
).items;
const product = [...products].sort((a, b) => a.periodDays - b.periodDays)[0];
if (!product) throw new Error('no mining product');
const miner = product;
const rentQuantity = Math.ceil(Number(miner.minInvestment) / Number(miner.unitPrice));
console.log(
  `contract period ${period.seconds} s; miner ${product.id} for ${product.periodDays} days of ${MINING_DAY_SECONDS} s`,
);

// The client's record: every operation with its key, body and what became of it.
type Kind = 'order' | 'transfer' | 'convert' | 'withdrawal' | 'rental';
const KINDS: Kind[] = ['order', 'transfer', 'convert', 'withdrawal', 'rental'];
interface Op {
  kind: Kind;
  user: User;
  key: string;
  url: string;
  body: unknown;
  /** acked: code 0 came back; refused: another code; unknown: no reply (yet); abandoned: no reply, never retried. */
  state: 'acked' | 'refused' | 'unknown' | 'abandoned';
  id?: string;
  refusal?: string;
  attempts: number;
}
const ops: Op[] = [];
let retries = 0;

async function call(baseUrl: string, user: User, url: string, body: unknown, key?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${user.token}`,
  };
  if (key) headers['idempotency-key'] = key;
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return (await response.json()) as { code: number; data: unknown; message: string };
}

async function get(baseUrl: string, user: User, url: string): Promise<unknown> {
  const response = await fetch(`${baseUrl}${url}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  const reply = (await response.json()) as { code: number; data: unknown; message: string };
  if (reply.code !== 0) throw new Error(`GET ${url}: ${reply.message}`);
  return reply.data;
}

/** The id an operation's reply names: the order, the ledger entry, the withdrawal, the rental. */
function idOf(kind: Kind, data: unknown): string {
  const reply = data as { order?: { id: string }; entryId?: string; id?: string };
  const id =
    kind === 'order'
      ? reply.order?.id
      : kind === 'transfer' || kind === 'convert'
        ? reply.entryId
        : reply.id;
  if (!id) throw new Error(`${kind} reply without an id: ${JSON.stringify(data).slice(0, 200)}`);
  return id;
}

/** Sends (or resends) an operation; a failed fetch leaves it unknown, as a client would see it. */
async function attempt(baseUrl: string, op: Op): Promise<void> {
  op.attempts += 1;
  try {
    const reply = await call(baseUrl, op.user, op.url, op.body, op.key);
    if (reply.code === 0) {
      op.state = 'acked';
      op.id = idOf(op.kind, reply.data);
    } else {
      op.state = 'refused';
      op.refusal = `${op.kind} ${reply.code} ${reply.message}`;
    }
  } catch {
    op.state = 'unknown';
  }
}

const stake = (minStake: string) => String(Number(minStake) * Math.ceil(between(1, 5)));

/** One operation of a random kind; a conversion first asks for its quote (not a money route, no key). */
async function nextOperation(baseUrl: string): Promise<Op> {
  const user = pick(users);
  const kind = pick<Kind>([
    'order',
    'order',
    'order',
    'transfer',
    'transfer',
    'convert',
    'withdrawal',
    'rental',
  ]);
  const op = (url: string, body: unknown): Op => ({
    kind,
    user,
    key: `chaos-${crypto.randomUUID()}`,
    url,
    body,
    state: 'unknown',
    attempts: 0,
  });
  switch (kind) {
    case 'order':
      return op('/api/v1/contracts/orders', {
        symbol: pick(['BTCUSDT', 'ETHUSDT']),
        direction: pick(['up', 'down']),
        periodId: contractPeriod.id,
        amount: stake(contractPeriod.minStake),
        tradePassword: PIN,
      });
    case 'transfer': {
      const toFutures = random() < 0.5;
      return op('/api/v1/wallet/transfer', {
        from: toFutures ? 'spot' : 'futures',
        to: toFutures ? 'futures' : 'spot',
        asset: 'USDT',
        amount: String(Math.ceil(between(1, 100))),
      });
    }
    case 'convert': {
      const buy = random() < 0.5;
      const quote = await call(
        baseUrl,
        user,
        '/api/v1/convert/quote',
        buy
          ? { from: 'USDT', to: 'BTC', amount: String(Math.ceil(between(10, 500))) }
          : { from: 'BTC', to: 'USDT', amount: '0.001' },
      );
      if (quote.code !== 0) throw new Error(`quote refused: ${quote.message}`);
      return op('/api/v1/convert', { quoteId: (quote.data as { id: string }).id });
    }
    case 'withdrawal':
      return op('/api/v1/withdrawals', {
        asset: 'USDT',
        network: 'TRC20',
        address: TRON,
        amount: String(Math.ceil(between(10, 50))),
        password: PIN,
      });
    case 'rental':
      return op('/api/v1/mining/rentals', {
        productId: miner.id,
        quantity: rentQuantity,
        amount: String(Number(miner.unitPrice) * rentQuantity),
      });
  }
}

/** Client loops sending operations back to back until the server dies under them. */
function traffic(baseUrl: string, alive: () => boolean): Promise<void>[] {
  return Array.from({ length: loopCount }, async () => {
    while (alive()) {
      let op: Op;
      try {
        op = await nextOperation(baseUrl);
      } catch {
        // The quote failed (the server died, or no fresh price yet): nothing with a key was sent.
        await sleep(20);
        continue;
      }
      ops.push(op);
      await attempt(baseUrl, op);
      if (op.state === 'unknown') await sleep(20);
    }
  });
}

/** After a restart: each operation still without a reply is resent with its key (3 in 4) or given up for good. */
async function retryUnknown(baseUrl: string): Promise<void> {
  const pending = ops.filter((op) => op.state === 'unknown');
  for (const op of pending) if (random() < 0.25) op.state = 'abandoned';
  const toRetry = pending.filter((op) => op.state === 'unknown');
  retries += toRetry.length;
  for (let i = 0; i < toRetry.length; i += loopCount)
    await Promise.all(toRetry.slice(i, i + loopCount).map((op) => attempt(baseUrl, op)));
}

async function scalar(query: string): Promise<number> {
  const { rows } = await admin.query<{ n: string | null }>(query);
  return Number(rows[0]?.n ?? 0);
}

// The kill loop. Most kills land at a random moment 0.3–3 s into the traffic; one in three is
// aimed just past the next open order's delivery (if one is due within 10 s), while the
// settlement worker is at work.
const started = performance.now();
let aimedKills = 0;
let killsWithOrdersDue = 0;
let killsWithPayoutsDue = 0;
let bootKills = 0;
for (let k = 1; k <= kills; k++) {
  await retryUnknown(server.baseUrl);
  let running = true;
  const loops = traffic(server.baseUrl, () => running);
  let wait = between(300, 3_000);
  if (random() < 1 / 3) {
    const nextDue = await scalar(
      `select (extract(epoch from min(deliver_at) - now()) * 1000)::text as n from contract_orders where state = 'open' and deliver_at > now()`,
    );
    if (nextDue > 0 && nextDue < 10_000) {
      wait = nextDue + between(0, 300);
      aimedKills += 1;
    }
  }
  await sleep(wait);
  if (
    (await scalar(
      `select count(*)::text as n from contract_orders where state = 'open' and deliver_at <= now()`,
    )) > 0
  )
    killsWithOrdersDue += 1;
  if (
    (await scalar(
      `select count(*)::text as n from mining_rentals where status = ${MINING_RENTAL_STATUS.active} and next_payout_at <= now()`,
    )) > 0
  )
    killsWithPayoutsDue += 1;
  await server.kill();
  running = false;
  await Promise.all(loops);
  const counts = Object.fromEntries(
    ['acked', 'refused', 'unknown', 'abandoned'].map((s) => [
      s,
      ops.filter((op) => op.state === s).length,
    ]),
  );
  console.log(`kill ${k}/${kills} after ${Math.round(wait)} ms: ${JSON.stringify(counts)}`);
  // One restart in ten is itself killed partway through the boot (migrations, demo seeding, workers starting), on top of the count.
  if (random() < 0.1) {
    const booting = await spawnServer(databaseUrl, SERVER_ENV);
    const bootWait = between(200, percentile(bootMs, 50));
    await sleep(bootWait);
    await booting.kill();
    bootKills += 1;
    console.log(`  and the restart after it ${Math.round(bootWait)} ms into its boot`);
  }
  server = await boot();
}

// Recovery: one last restart, the last retries, then the workers get until every acknowledged
// order's delivery + the recovery time to catch up before anything counts as stuck.
await retryUnknown(server.baseUrl);
for (const op of ops) if (op.state === 'unknown') op.state = 'abandoned';
const lastDue = await scalar(
  `select (extract(epoch from max(deliver_at)) * 1000)::text as n from contract_orders`,
);
while (Date.now() < lastDue + RECOVERY_MS) {
  if ((await scalar(`select count(*)::text as n from contract_orders where state = 'open'`)) === 0)
    break;
  await sleep(500);
}
await sleep(2 * MINING_DAY_SECONDS * 1000);
const stuckOrders = await scalar(
  `select count(*)::text as n from contract_orders where state = 'open' and deliver_at < now() - interval '${RECOVERY_MS} milliseconds'`,
);
const stuckRentals = await scalar(
  `select count(*)::text as n from mining_rentals where status = ${MINING_RENTAL_STATUS.active} and next_payout_at < now() - interval '${RECOVERY_MS} milliseconds'`,
);
await server.stop();
const durationS = (performance.now() - started) / 1000;

// The checks, on the database at rest.
const failures: string[] = [];
const fail = (what: string, detail?: unknown) =>
  failures.push(detail === undefined ? what : `${what}: ${JSON.stringify(detail).slice(0, 400)}`);

/** Per kind: the ids of the rows the operation creates, for the bench's users ($1). */
const ROWS: Record<Kind, string> = {
  order: 'select id::text from contract_orders where user_id = any($1::bigint[])',
  transfer:
    "select id::text from ledger_entries where kind = 'transfer' and user_id = any($1::bigint[])",
  convert:
    "select id::text from ledger_entries where kind = 'conversion' and user_id = any($1::bigint[])",
  withdrawal: 'select id::text from withdrawals where user_id = any($1::bigint[])',
  rental: 'select id::text from mining_rentals where user_id = any($1::bigint[])',
};
const uids = users.map((u) => u.uid);
const { rows: keyRows } = await admin.query<{
  user_id: string;
  key: string;
  response: string | null;
}>('select user_id::text, key, response from idempotency_keys where user_id = any($1::bigint[])', [
  uids,
]);
const stored = new Map(keyRows.map((row) => [`${row.user_id}/${row.key}`, row.response]));
const perKind: Record<
  string,
  {
    acked: number;
    ackedOnRetry: number;
    refused: number;
    abandoned: number;
    appliedUnacknowledged: number;
    rows: number;
  }
> = {};
for (const kind of KINDS) {
  const { rows } = await admin.query<{ id: string }>(ROWS[kind], [uids]);
  const dbIds = new Set(rows.map((row) => row.id));
  const keyIds: string[] = [];
  let appliedUnacknowledged = 0;
  for (const op of ops.filter((o) => o.kind === kind)) {
    const response = stored.get(`${op.user.uid}/${op.key}`);
    // A key is written with its reply in one transaction: one without is half a request.
    if (response === null) fail(`${kind}: key stored without its reply`, { key: op.key });
    const storedId = typeof response === 'string' ? idOf(kind, JSON.parse(response)) : undefined;
    if (storedId !== undefined) keyIds.push(storedId);
    if (op.state === 'acked') {
      if (storedId !== op.id)
        fail(`${kind} acknowledged but its key holds another reply`, {
          key: op.key,
          acked: op.id,
          stored: storedId,
        });
      if (!dbIds.has(op.id as string))
        fail(`${kind} acknowledged but missing`, { key: op.key, id: op.id });
    } else if (op.state === 'refused') {
      if (storedId !== undefined)
        fail(`${kind} refused but applied`, { key: op.key, id: storedId, refusal: op.refusal });
    } else if (storedId !== undefined) appliedUnacknowledged += 1;
  }
  // Every row has exactly one key, every key exactly one row: nothing applied twice, nothing without a request.
  const distinct = new Set(keyIds);
  if (distinct.size !== keyIds.length) fail(`${kind}: two keys name the same row`);
  const withoutKey = [...dbIds].filter((id) => !distinct.has(id));
  if (withoutKey.length > 0)
    fail(`${kind}: rows no request's key accounts for (applied twice?)`, withoutKey.slice(0, 10));
  const withoutRow = [...distinct].filter((id) => !dbIds.has(id));
  if (withoutRow.length > 0) fail(`${kind}: keys whose row is missing`, withoutRow.slice(0, 10));
  const mine = ops.filter((o) => o.kind === kind);
  perKind[kind] = {
    acked: mine.filter((o) => o.state === 'acked').length,
    ackedOnRetry: mine.filter((o) => o.state === 'acked' && o.attempts > 1).length,
    refused: mine.filter((o) => o.state === 'refused').length,
    abandoned: mine.filter((o) => o.state === 'abandoned').length,
    appliedUnacknowledged,
    rows: dbIds.size,
  };
}
const ackedIds = ops.filter((op) => op.state === 'acked').map((op) => `${op.kind}:${op.id}`);
if (new Set(ackedIds).size !== ackedIds.length)
  fail('two acknowledged operations name the same row');

async function none(what: string, query: string) {
  const { rows } = await admin.query(query);
  if (rows.length > 0) fail(what, rows.slice(0, 10));
}
// Orders: one opening entry each, at most one settlement, a settlement for exactly the settled ones.
await none(
  'order without exactly one open entry',
  `select o.id from contract_orders o left join ledger_entries e on e.reference = 'contract:' || o.id || ':open' group by o.id having count(e.id) <> 1`,
);
await none(
  'order settled twice',
  `select reference, count(*) from ledger_entries where reference like 'contract:%:settle' group by reference having count(*) > 1`,
);
await none(
  'settled order without exactly one settlement entry, or a settlement of an order not settled',
  `select o.id, o.state, count(e.id) from contract_orders o left join ledger_entries e on e.reference = 'contract:' || o.id || ':settle'
   group by o.id, o.state having count(e.id) <> (case when o.state = 'settled' then 1 else 0 end)`,
);
if (stuckOrders > 0) fail(`${stuckOrders} orders still open ${RECOVERY_MS / 1000} s past delivery`);
// Mining: each day one payout row and one entry; a rental's paid days are its payout rows.
await none(
  'mining day paid twice',
  `select reference, count(*) from ledger_entries where reference like 'mining:%:day:%' group by reference having count(*) > 1`,
);
await none(
  'mining payout rows and day entries differ',
  `select r.id, r.paid_days, count(p.day) as payout_rows, (select count(*) from ledger_entries e where e.reference like 'mining:' || r.id || ':day:%') as entries
   from mining_rentals r left join mining_payouts p on p.rental_id = r.id group by r.id
   having count(p.day) <> r.paid_days or (select count(*) from ledger_entries e where e.reference like 'mining:' || r.id || ':day:%') <> r.paid_days`,
);
await none(
  'rental without exactly one rent entry',
  `select r.id from mining_rentals r left join ledger_entries e on e.reference = 'mining:' || r.id || ':rent' group by r.id having count(e.id) <> 1`,
);
if (stuckRentals > 0)
  fail(`${stuckRentals} rentals with a day unpaid ${RECOVERY_MS / 1000} s past due`);
// Withdrawals wait for an operator: each request row has its one locking entry (the ledger check matches the locks).
await none(
  'withdrawal without exactly one request entry',
  `select w.id from withdrawals w left join ledger_entries e on e.reference = 'withdrawal:' || w.id || ':request' group by w.id having count(e.id) <> 1`,
);

const { rows: settleRows } = await admin.query<{ settled: string; open: string }>(
  `select count(*) filter (where state = 'settled')::text as settled, count(*) filter (where state = 'open')::text as open from contract_orders`,
);
const { rows: payoutRows } = await admin.query<{ days: string; completed: string }>(
  `select (select count(*) from mining_payouts)::text as days, (select count(*) from mining_rentals where status = ${MINING_RENTAL_STATUS.completed})::text as completed`,
);
await admin.end();
const violations = await checkLedger(database.db, LOCKED_FUND_OBLIGATIONS);
await database.close();
for (const violation of violations) fail(`ledger: ${violation.rule}`, violation.detail);

const refusals: Record<string, number> = {};
for (const op of ops) if (op.refusal) refusals[op.refusal] = (refusals[op.refusal] ?? 0) + 1;
bootMs.sort((a, b) => a - b);
const result = {
  ...runStamp(),
  seed,
  kills,
  aimedAtDeliveries: aimedKills,
  killedWhileBooting: bootKills,
  killsWithOrdersDue,
  killsWithPayoutsDue,
  users: userCount,
  clientLoops: loopCount,
  durationSeconds: Math.round(durationS),
  restartMs: { p50: Math.round(percentile(bootMs, 50)), max: Math.round(bootMs.at(-1) ?? 0) },
  operations: perKind,
  retries,
  refusals,
  orders: {
    settled: Number(settleRows[0]?.settled),
    open: Number(settleRows[0]?.open),
    stuck: stuckOrders,
  },
  mining: {
    daysPaid: Number(payoutRows[0]?.days),
    rentalsCompleted: Number(payoutRows[0]?.completed),
    stuck: stuckRentals,
  },
  invariants: violations.length === 0 ? 'hold' : violations,
  pass: failures.length === 0,
  failures,
};
if (kills >= FULL_RUN_KILLS) {
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench/results/chaos.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  );
}
console.log(JSON.stringify(result, null, 2));
if (failures.length > 0) {
  console.error(
    `bench:chaos FAILED (seed ${seed}):\n${failures.map((f) => `  - ${f}`).join('\n')}`,
  );
  process.exitCode = 1;
}
