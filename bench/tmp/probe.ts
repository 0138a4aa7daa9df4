import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { Ledger } from '../../apps/server/src/modules/ledger/service.ts';
import { placeBatch } from '../../apps/server/src/modules/contracts/batcher.ts';
import { Hub } from '../../apps/server/src/platform/ws.ts';
import { MarketRecorder } from '../../apps/server/src/modules/market/recorder.ts';
import { SimulatedFeed } from '../../apps/server/src/modules/market/feed.ts';
import crypto from 'node:crypto';
import pg from 'pg';

const orig = (pg.Client.prototype as any).query;
const times = new Map<string, number[]>();
(pg.Client.prototype as any).query = function (...args: any[]) {
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.name ?? args[0]?.text;
  const t0 = performance.now();
  const r = orig.apply(this, args);
  if (r && typeof r.then === 'function') r.then(() => { const k = String(text).slice(0, 60).replace(/\s+/g, ' '); times.set(k, [...(times.get(k) ?? []), performance.now() - t0]); }, () => undefined);
  return r;
};
const url = 'postgres://postgres@127.0.0.1:5432/tw_bench_orders';
const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
const c = new pg.Client({ connectionString: url }); await c.connect();
const users = (await c.query("select user_id from ledger_accounts a where kind = 'user' and wallet = 'futures' and available > 10000000000 limit 400")).rows.map((r) => Number(r.user_id));
const ledger = new Ledger();
const clock = { now: () => new Date() };
const rec = new MarketRecorder({ db: database.db, clock, feed: new SimulatedFeed({ seed: 1 }) });
await rec.resume(); await rec.recordOnce();
const deps = { db: database.db, clock, ledger, hub: new Hub(), maxOpenOrders: 100000 };
for (let round = 0; round < 10; round++) {
  const reqs = Array.from({ length: 32 }, (_, i) => ({ userId: users[i % users.length]!, key: crypto.randomUUID(), hash: 'h', body: { symbol: 'BTCUSDT', direction: 'up', periodId: 4, amount: '10' } as any, stakeMinor: 10_000_000n, lang: 'en' as const }));
  const t0 = performance.now();
  const steps: [string, number][] = [];
  const res = await database.db.transaction(async (tx) => placeBatch(deps as any, tx as any, new Date(), reqs));
  console.log(`batch ${round}: ${(performance.now() - t0).toFixed(1)} ms, ok ${res.filter((r) => 'ok' in r).length}`, res.find((r) => 'error' in r));
}
for (const [k, v] of times) console.log(k.padEnd(62), (v.reduce((a, b) => a + b, 0) / v.length).toFixed(2), v.length);
await c.end(); await database.close();
