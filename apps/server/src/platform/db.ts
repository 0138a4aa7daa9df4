import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';

export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT>;
/** Anything that runs queries: the database or an open transaction. Services take this. */
export type Executor = Db | Tx;

/** Runs raw SQL and returns its rows (both drivers answer `{rows}`). */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A hot-path statement with a fixed name and text: on PostgreSQL each connection parses
 * and plans it once, then only binds values (ARCHITECTURE §9). Write it so one text fits
 * every batch size (arrays and `unnest`), and cast what it returns to text, int4, float8 or
 * boolean, which both drivers read the same way.
 */
export interface NamedStatement {
  name: string;
  text: string;
  /**
   * Plan it for each run's values instead: sent unnamed, so the server never settles on a
   * generic plan. For statements whose best plan depends on how many rows the arrays carry
   * (a settlement batch of 5 orders and one of 2,000): after five runs PostgreSQL may keep a
   * generic plan, which guesses the arrays' sizes, and on bench/settlement one such plan
   * took 1,034 ms for a batch that takes ~190 ms planned for its values.
   */
  planEachRun?: boolean;
}

interface RawClient {
  query: (...args: unknown[]) => Promise<{ rows: unknown[] }>;
}

/** Runs a named statement on the database or inside a transaction; returns its rows. */
export async function runNamed<T>(
  executor: Executor,
  statement: NamedStatement,
  values: unknown[],
): Promise<T[]> {
  // Drizzle keeps the driver's client (a pg pool or pool client, or PGlite) on its session.
  const client = (executor as unknown as { session: { client: RawClient } }).session.client;
  const isNodePg = 'release' in client || 'totalCount' in client;
  const named = isNodePg && !statement.planEachRun;
  const result = named
    ? await client.query({ name: statement.name, text: statement.text, values })
    : await client.query(statement.text, values);
  return result.rows as T[];
}

/**
 * What a pipelined transaction's `work` returns: its value, and the promise of the writes it
 * queued last and did not wait for (COMMIT goes out right behind them).
 */
export interface PipelinedWork<T> {
  value: T;
  writes: Promise<unknown>;
}

/** The connections of each PostgreSQL database that send a statement without waiting for the one before (`pipelinedTransaction`). */
const pipelinePools = new WeakMap<object, pg.Pool>();

const executors = new WeakMap<pg.PoolClient, Db>();

/** Drizzle over one pooled connection, made once per connection. */
function executorOn(client: pg.PoolClient): Db {
  let executor = executors.get(client);
  if (!executor) executors.set(client, (executor = drizzleNodePg({ client }) as unknown as Db));
  return executor;
}

/**
 * One transaction in as few round trips as the driver allows (ARCHITECTURE §9). On
 * PostgreSQL it runs on a connection in pipeline mode: BEGIN is written with `work`'s first
 * statements, every statement `work` starts before it awaits goes out with them, and COMMIT
 * is written right behind the writes `work` returns unawaited. A statement that fails aborts
 * the transaction, so those behind it fail too and COMMIT answers ROLLBACK: the value is
 * returned only if COMMIT committed, and otherwise the first error is thrown. So `work` must
 * not return writes whose success it would still have to check in JS: a check that decides
 * whether to commit belongs in the statement (it raises). Elsewhere (PGlite) it is an
 * ordinary transaction that awaits the writes before it commits.
 */
export async function pipelinedTransaction<T>(
  db: Db,
  work: (tx: Executor) => Promise<PipelinedWork<T>>,
): Promise<T> {
  const pool = pipelinePools.get(db);
  if (!pool) {
    return db.transaction(async (tx) => {
      const { value, writes } = await work(tx);
      await writes;
      return value;
    });
  }
  const client = await pool.connect();
  let broken: unknown;
  try {
    const begin = client.query('begin');
    begin.catch(() => undefined);
    try {
      const { value, writes } = await work(executorOn(client));
      const commit = client.query('commit');
      const [, , committed] = await Promise.all([begin, writes, commit]);
      if (committed.command !== 'COMMIT')
        throw new Error(`the transaction ended with ${committed.command}, not COMMIT`);
      return value;
    } catch (error) {
      // Behind every statement already written: when it answers, they all have.
      await client.query('rollback').catch((rollbackError: unknown) => {
        broken = rollbackError;
      });
      throw error;
    }
  } finally {
    client.release(broken instanceof Error ? broken : undefined);
  }
}

export const MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/** One migration of `drizzle/` as its journal names it: drizzle applies those `when` is later than the last it recorded. */
interface JournalEntry {
  tag: string;
  when: number;
}

function migrationJournal(): JournalEntry[] {
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: JournalEntry[] };
  return journal.entries;
}

/**
 * The migrations of `drizzle/` this database has not had, by tag, oldest first. Drizzle keeps
 * what it applied in `drizzle.__drizzle_migrations` (a row per migration, `created_at` being
 * the journal's `when`) and applies every migration later than the latest row: the same rule.
 */
async function pendingMigrations(executor: Executor): Promise<string[]> {
  const [table] = await queryRows<{ present: boolean }>(
    executor,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  let lastWhen = Number.NEGATIVE_INFINITY;
  if (table?.present) {
    const [row] = await queryRows<{ last: string | null }>(
      executor,
      sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
    );
    if (row?.last) lastWhen = Number(row.last);
  }
  return migrationJournal()
    .filter((entry) => entry.when > lastWhen)
    .map((entry) => entry.tag);
}

/** Migrations for a line of text: each name when few, else the count and the first and last. */
export function describeMigrations(tags: string[]): string {
  if (tags.length <= 3) return tags.join(', ');
  return `${tags.length} migrations, ${tags[0]} … ${tags.at(-1)}`;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the migrations in `drizzle/` (idempotent); returns the tags it applied. */
  migrate: () => Promise<string[]>;
  /** The migrations in `drizzle/` not applied yet, by tag (MIGRATE_ON_START=false refuses to start on any). */
  pendingMigrations: () => Promise<string[]>;
  /** PGlite only: the whole data directory as a tarball, to start copies from. */
  dump?: () => Promise<Blob>;
  /** PostgreSQL only: a new connected client outside the pool (the relay's LISTEN connection); the caller ends it. */
  connectDedicated?: () => Promise<pg.Client>;
  /** PostgreSQL only: each pool's connections in use, requests waiting for one, and its most (metrics). */
  poolStats?: () => PoolStats[];
  close: () => Promise<void>;
}

export interface PoolStats {
  pool: 'main' | 'pipeline';
  inUse: number;
  waiting: number;
  max: number;
}

function statsOf(name: PoolStats['pool'], pool: pg.Pool, max: number): PoolStats {
  return { pool: name, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, max };
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory. */
  dataDir?: string;
  /** A PGlite data-dir dump to start from (tests: migrate once, copy for each file). */
  pgliteDump?: Blob;
  /** PostgreSQL: the main pool's most connections (DB_POOL_MAX). */
  poolSize?: number;
  /** PostgreSQL: the most connections for pipelined transactions, beside the main pool (DB_PIPELINE_POOL_MAX). */
  pipelinePoolSize?: number;
  /** PostgreSQL: what each connection names itself in pg_stat_activity (`tradewind-<role>-<node>`). */
  applicationName?: string;
}

/** The defaults of DB_POOL_MAX and DB_PIPELINE_POOL_MAX (platform/config.ts). */
export const DEFAULT_POOL_SIZE = 20;
export const DEFAULT_PIPELINE_POOL_SIZE = 4;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const applicationName = options.applicationName ?? 'tradewind';
    const poolMax = options.poolSize ?? DEFAULT_POOL_SIZE;
    const pipelineMax = options.pipelinePoolSize ?? DEFAULT_PIPELINE_POOL_SIZE;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: poolMax,
      application_name: applicationName,
    });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    const db = drizzleNodePg({ client: pool }) as unknown as Db;
    // A few connections for pipelined transactions (the order batches run two at a time).
    const pipelined = new pg.Pool({
      connectionString: options.databaseUrl,
      max: pipelineMax,
      application_name: applicationName,
      pipeline: true,
    });
    pipelined.on('error', () => {
      // As above.
    });
    pipelinePools.set(db, pipelined);
    const connectionString = options.databaseUrl;
    const connectDedicated = async () => {
      const client = new pg.Client({ connectionString, application_name: applicationName });
      await client.connect();
      return client;
    };
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePostgres(pool),
      pendingMigrations: () => pendingMigrations(db),
      connectDedicated,
      poolStats: () => [
        statsOf('main', pool, poolMax),
        statsOf('pipeline', pipelined, pipelineMax),
      ],
      close: () => Promise.all([pool.end(), pipelined.end()]).then(() => undefined),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
  // Loaded only here: a process on PostgreSQL never carries the embedded engine (about 40 MB).
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = await PGlite.create({
    dataDir,
    ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
  });
  const db = drizzlePglite({ client });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    // The data directory is one process's (platform/data-lock.ts): nobody migrates in between.
    migrate: async () => {
      const pending = await pendingMigrations(db as unknown as Db);
      await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
      return pending;
    },
    pendingMigrations: () => pendingMigrations(db as unknown as Db),
    dump: () => client.dumpDataDir('gzip'),
    close: () => client.close(),
  };
}

/**
 * On PostgreSQL several processes may start at once; a session advisory lock lets one
 * migrate while the others wait, then find nothing left to do.
 */
async function migratePostgres(pool: pg.Pool): Promise<string[]> {
  const lockId = 7_441_001;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [lockId]);
    // Read under the lock: what the others applied meanwhile is not this process's to report.
    const db = drizzleNodePg({ client });
    const pending = await pendingMigrations(db as unknown as Db);
    await migrateNodePg(db, { migrationsFolder: MIGRATIONS_DIR });
    return pending;
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    client.release();
  }
}
