// bench/growth: how fast the embedded demo's data directory grows (issue 26). Target: at most
// 50 MB a day. The server runs on a fresh PGlite DATA_DIR in demo mode, as `npm start` does
// with no DATABASE_URL: it is started, stopped once it has recorded its first prices, and
// measured; started again, left alone for --minutes, stopped and measured again. Measuring a
// stopped server is measuring after PGlite's shutdown checkpoint: what the directory holds
// then is what it holds for good. Live sizes (the WAL included) are sampled every minute too.
//
//   node --import tsx bench/growth/run.ts [--minutes 10] [--warmup-seconds 30]
//
// The growth per day is the tables' growth (with their indexes) extrapolated from the run.
// The WAL is counted apart: its files are recycled at each checkpoint, so they hold about
// min_wal_size (80 MB) however long the server runs, provided something checkpoints (on
// PGlite the housekeeping worker does; PGlite itself never does while it runs). Raw ticks are
// kept TICK_RETENTION_DAYS (3 on PGlite), so the directory stops growing by ticks after that
// many days: the steady state is about the ticks of that many days on top of everything else,
// which keeps growing only as fast as the candles and the demo's own records do.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase, queryRows } from '../../apps/server/src/platform/db.ts';
import { ROOT, freePort, runStamp } from '../lib/harness.ts';
import { waitForPrices } from '../lib/traders.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '30' },
  },
});
const minutes = Number(values.minutes);
const warmupS = Number(values['warmup-seconds']);
if (!(minutes > 0 && minutes <= 24 * 60) || !(warmupS >= 0 && warmupS <= 600))
  throw new Error('--minutes must be in (0, 1440] and --warmup-seconds in [0, 600]');

const MB = 1_000_000;
const DAY_MS = 86_400_000;
/** PGlite's min_wal_size: the WAL files kept for reuse once checkpoints recycle them. */
const WAL_PLATEAU_MB = 80;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-growth-'));
const dataDir = path.join(work, 'data');
// The demo as shipped: no DATABASE_URL (so PGlite and its defaults), demo mode, no web build.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  DEMO_HISTORY_DAYS: '0',
  WEB_DIST: '/nonexistent',
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
const retentionDays = loadConfig(env).market.tickRetentionDays;

interface Server {
  child: ChildProcess;
  baseUrl: string;
}

async function start(): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode} before it was up`);
    if (Date.now() > deadline) throw new Error('the server was not up within 120 s');
    const up = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await sleep(200);
  }
  await waitForPrices(baseUrl);
  return { child, baseUrl };
}

/** SIGTERM, and wait: the server closes PGlite, which checkpoints on its way out. */
async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
  if (server.child.exitCode !== 0)
    throw new Error(`the server exited with ${server.child.exitCode}`);
}

/** How old BTCUSDT's latest recorded price is, in seconds (null: none). */
async function latestTickAgeS(server: Server): Promise<number | null> {
  const reply = (await (await fetch(`${server.baseUrl}/api/v1/market/prices`)).json()) as {
    data: { items: { instrument: string; ts: string | null }[] };
  };
  const ts = reply.data.items.find((p) => p.instrument === 'BTCUSDT')?.ts;
  return ts ? Math.round((Date.now() - Date.parse(ts)) / 1000) : null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Space on disk (du -sk), in bytes. */
function du(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir]).toString().split('\t')[0]) * 1024;
}

interface Snapshot {
  dataBytes: number;
  walBytes: number;
  /** Where the WAL ends (pg_current_wal_lsn), in bytes: the difference of two is the WAL written between them. */
  walEnd: number;
  ticks: number;
  candles: number;
  /**
   * Each table with its indexes and TOAST, main forks only: the free-space and visibility maps
   * a VACUUM creates once per table are not growth, and in a short run they would look like it.
   */
  tables: Map<string, number>;
  /** market_ticks' heap and each of its indexes, apart: where a tick's bytes go. */
  tickRelations: Map<string, number>;
}

/** The stopped server's directory: du first (opening the database writes to it), then what each table holds. */
async function snapshot(): Promise<Snapshot> {
  const dataBytes = du(dataDir);
  const walBytes = du(path.join(dataDir, 'pg_wal'));
  const database = await openDatabase({ dataDir });
  try {
    const rows = await queryRows<{ name: string; bytes: string }>(
      database.db,
      sql`select c.relname as name,
                 (pg_relation_size(c.oid) + coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0)
                  + (select coalesce(sum(pg_relation_size(i.indexrelid)), 0) from pg_index i where i.indrelid in (c.oid, c.reltoastrelid)))::text as bytes
          from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname = 'public'`,
    );
    const tickRelations = await queryRows<{ name: string; bytes: string }>(
      database.db,
      sql`select c.relname as name, pg_relation_size(c.oid)::text as bytes from pg_class c
          where c.oid = 'market_ticks'::regclass or c.oid in (select indexrelid from pg_index where indrelid = 'market_ticks'::regclass)`,
    );
    const [counts] = await queryRows<{ ticks: number; candles: number; wal_end: string }>(
      database.db,
      sql`select (select count(*) from market_ticks)::int4 as ticks, (select count(*) from market_candles_1m)::int4 as candles,
                 pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as wal_end`,
    );
    return {
      dataBytes,
      walBytes,
      walEnd: Number(counts?.wal_end ?? 0),
      ticks: counts?.ticks ?? 0,
      candles: counts?.candles ?? 0,
      tables: new Map(rows.map((r) => [r.name, Number(r.bytes)])),
      tickRelations: new Map(tickRelations.map((r) => [r.name, Number(r.bytes)])),
    };
  } finally {
    await database.close();
  }
}

const perDay = (bytes: number, ms: number) => Number((((bytes / ms) * DAY_MS) / MB).toFixed(1));

console.log(`data directory ${dataDir}; warming up for ${warmupS} s`);
const first = await start();
await sleep(warmupS * 1000);
await stop(first);
const before = await snapshot();

console.log(`running for ${minutes} min`);
const server = await start();
const startedAt = Date.now();
// Live sizes lag behind (PGlite writes pages out when it evicts or checkpoints them); the
// latest tick's age says the recorder kept up, without which the run measures nothing.
const live: { minute: number; dataMB: number; walMB: number; latestTickAgeS: number | null }[] = [];
for (let minute = 1; minute <= minutes; minute++) {
  await sleep(Math.max(0, startedAt + minute * 60_000 - Date.now()));
  live.push({
    minute,
    dataMB: Number((du(dataDir) / MB).toFixed(1)),
    walMB: Number((du(path.join(dataDir, 'pg_wal')) / MB).toFixed(1)),
    latestTickAgeS: await latestTickAgeS(server),
  });
  console.log(JSON.stringify(live.at(-1)));
}
const ranMs = Date.now() - startedAt;
await stop(server);
const after = await snapshot();

const tableGrowth = [...after.tables].map(([name, bytes]) => ({
  name,
  bytes: bytes - (before.tables.get(name) ?? 0),
}));
const tickBytes = tableGrowth.find((t) => t.name === 'market_ticks')?.bytes ?? 0;
const ticks = after.ticks - before.ticks;
const relationsGrowth = tableGrowth.reduce((sum, t) => sum + t.bytes, 0);
const ticksPerDayMB = perDay(tickBytes, ranMs);
const growthPerDayMB = perDay(relationsGrowth, ranMs);
// Everything but the raw ticks (candles, the demo's own records) keeps growing past the retention.
const otherPerDayMB = Number((growthPerDayMB - ticksPerDayMB).toFixed(1));

const result = {
  ...runStamp(),
  command: `npm run bench:growth -- --minutes ${minutes}`,
  minutes: Number((ranMs / 60_000).toFixed(2)),
  tickRetentionDays: retentionDays,
  dataDir: {
    beforeMB: Number((before.dataBytes / MB).toFixed(1)),
    afterMB: Number((after.dataBytes / MB).toFixed(1)),
    walFilesBeforeMB: Number((before.walBytes / MB).toFixed(1)),
    walFilesAfterMB: Number((after.walBytes / MB).toFixed(1)),
  },
  growthMB: Number((relationsGrowth / MB).toFixed(2)),
  growthPerDayMB,
  wal: {
    writtenMB: Number(((after.walEnd - before.walEnd) / MB).toFixed(1)),
    writtenPerDayMB: perDay(after.walEnd - before.walEnd, ranMs),
  },
  live,
  tables: tableGrowth
    .filter((t) => t.bytes !== 0)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 10)
    .map((t) => ({
      name: t.name,
      growthKB: Math.round(t.bytes / 1000),
      perDayMB: perDay(t.bytes, ranMs),
    })),
  ticks: {
    recorded: ticks,
    perSecond: Number((ticks / (ranMs / 1000)).toFixed(1)),
    bytesEach: ticks > 0 ? Math.round(tickBytes / ticks) : null,
    bytesEachBy: Object.fromEntries(
      [...after.tickRelations].map(([name, bytes]) => [
        name,
        ticks > 0
          ? Number(((bytes - (before.tickRelations.get(name) ?? 0)) / ticks).toFixed(1))
          : null,
      ]),
    ),
    perDayMB: ticksPerDayMB,
  },
  candles: { recorded: after.candles - before.candles },
  steadyState: {
    // After the retention, ticks are pruned as fast as they come and their space is reused: their share stops growing.
    ticksMB: Math.round(retentionDays * ticksPerDayMB),
    sizeAfterRetentionMB: Math.round(
      before.dataBytes / MB +
        retentionDays * growthPerDayMB +
        Math.max(0, WAL_PLATEAU_MB - before.walBytes / MB),
    ),
    growthPerDayAfterRetentionMB: Math.max(0, otherPerDayMB),
  },
  target: { growthPerDayMB: 50 },
};
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench/results/growth.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
fs.rmSync(work, { recursive: true, force: true });
if (growthPerDayMB > result.target.growthPerDayMB) process.exitCode = 1;
