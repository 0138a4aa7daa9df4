// bench/transfer: spot↔futures transfers per second through the HTTP API on PostgreSQL,
// beside pgbench's rate for the same ledger transaction, measured in the same run.
//
//   node --import tsx bench/transfer/run.ts [--seconds 15] [--concurrency 32] [--users 64]
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
import { LOCKED_FUND_OBLIGATIONS } from '../../apps/server/src/obligations.ts';
import {
  Ledger,
  externalAccount,
  userAccount,
} from '../../apps/server/src/modules/ledger/service.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import {
  ROOT,
  freshDatabase,
  load,
  pgbenchTps,
  post,
  registerUser,
  startServer,
} from '../lib/harness.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '32' },
    users: { type: 'string', default: '64' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const userCount = Number(values.users);

const databaseUrl = await freshDatabase('tw_bench_transfer');
const server = await startServer(databaseUrl);
console.log(`server on ${server.baseUrl}; registering ${userCount} users`);

const users: { token: string; uid: number }[] = [];
for (let i = 0; i < userCount; i++)
  users.push(await registerUser(server.baseUrl, `bench${i}@example.com`));

// Fund every user through the ledger (a deposit from outside), both wallets, plenty for the run.
const database = await openDatabase({ databaseUrl, poolSize: 2 });
const ledger = new Ledger();
for (const user of users) {
  await database.db.transaction((tx) =>
    ledger.post(tx, new Date(), {
      kind: 'bench_funding',
      reference: `bench:fund:${user.uid}`,
      userId: user.uid,
      postings: [
        { account: externalAccount('demo', 'USDT'), amount: -2_000_000_000_000n, type: 'deposit' },
        {
          account: userAccount(user.uid, 'spot', 'USDT'),
          amount: 1_000_000_000_000n,
          type: 'deposit',
        },
        {
          account: userAccount(user.uid, 'futures', 'USDT'),
          amount: 1_000_000_000_000n,
          type: 'deposit',
        },
      ],
    }),
  );
}

// Warm-up, then the measured run: each request moves 1 USDT one way or the other.
const transfer = async (i: number) => {
  const user = users[i % users.length] as { token: string };
  const toFutures = Math.floor(i / users.length) % 2 === 0;
  const reply = await post(
    server.baseUrl,
    '/api/v1/wallet/transfer',
    {
      from: toFutures ? 'spot' : 'futures',
      to: toFutures ? 'futures' : 'spot',
      asset: 'USDT',
      amount: '1',
    },
    { authorization: `Bearer ${user.token}`, 'idempotency-key': `bench-${crypto.randomUUID()}` },
  );
  return reply.code === 0;
};
await load(3, concurrency, transfer);
const api = await load(seconds, concurrency, transfer);
await server.stop();

// pgbench: the same transaction the API commits (idempotency key, entry, two postings whose
// triggers update both balances, the stored reply), as prepared statements on 8 clients.
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
await admin.query(`create table bench_accounts as
  select row_number() over (order by s.user_id) as n, s.user_id, s.id as spot_id, f.id as futures_id
  from ledger_accounts s join ledger_accounts f on f.user_id = s.user_id and f.wallet = 'futures' and f.asset = 'USDT'
  where s.wallet = 'spot' and s.asset = 'USDT' and s.kind = 'user' and s.user_id in (${users.map((u) => u.uid).join(',')})`);
await admin.query('create sequence bench_seq');
await admin.end();
const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-pgbench-')), 'transfer.sql');
fs.writeFileSync(
  script,
  `\\set n random(1, ${userCount})
BEGIN;
SELECT user_id, spot_id, futures_id, nextval('bench_seq') AS seq FROM bench_accounts WHERE n = :n \\gset
INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (:user_id, 'pgb-' || :seq, 'h', now()) ON CONFLICT DO NOTHING;
INSERT INTO ledger_entries (kind, reference, user_id, created_at) VALUES ('transfer', 'pgb:' || :seq, :user_id, now()) RETURNING id AS entry_id \\gset
INSERT INTO ledger_postings (entry_id, account_id, user_id, wallet, asset, bucket, type, amount, created_at) VALUES (:entry_id, :spot_id, :user_id, 'spot', 'USDT', 'available', 'transfer_out', -1000000, now()), (:entry_id, :futures_id, :user_id, 'futures', 'USDT', 'available', 'transfer_in', 1000000, now());
UPDATE idempotency_keys SET response = '{}' WHERE user_id = :user_id AND key = 'pgb-' || :seq;
END;
`,
);
const pgbenchOutput = execFileSync(
  'pgbench',
  ['-n', '-M', 'prepared', '-c', '8', '-j', '2', '-T', String(seconds), '-f', script, databaseUrl],
  { cwd: ROOT },
).toString();
const pgbench = pgbenchTps(pgbenchOutput);

const violations = await checkLedger(database.db, LOCKED_FUND_OBLIGATIONS);
await database.close();

const result = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  seconds,
  concurrency,
  users: userCount,
  api: {
    transfersPerSecond: Math.round(api.rate),
    ok: api.ok,
    failed: api.failed,
    p50Ms: Number(api.p50.toFixed(1)),
    p99Ms: Number(api.p99.toFixed(1)),
  },
  pgbench: { tps: Math.round(pgbench), clients: 8, mode: 'prepared' },
  ratio: Number((api.rate / pgbench).toFixed(2)),
  invariants: violations.length === 0 ? 'hold' : violations,
};
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/transfer.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
if (violations.length > 0 || api.failed > 0) process.exitCode = 1;
