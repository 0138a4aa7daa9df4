import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
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
export async function runNamed<T>(executor: Executor, statement: NamedStatement, values: unknown[]): Promise<T[]> {
  // Drizzle keeps the driver's client (a pg pool or pool client, or PGlite) on its session.
  const client = (executor as unknown as { session: { client: RawClient } }).session.client;
  const isNodePg = 'release' in client || 'totalCount' in client;
  const named = isNodePg && !statement.planEachRun;
  const result = named ? await client.query({ name: statement.name, text: statement.text, values }) : await client.query(statement.text, values);
  return result.rows as T[];
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the migrations in `drizzle/` (idempotent). */
  migrate: () => Promise<void>;
  /** PGlite only: the whole data directory as a tarball, to start copies from. */
  dump?: () => Promise<Blob>;
  /** PostgreSQL only: a new connected client outside the pool (the relay's LISTEN connection); the caller ends it. */
  connectDedicated?: () => Promise<pg.Client>;
  close: () => Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory. */
  dataDir?: string;
  /** A PGlite data-dir dump to start from (tests: migrate once, copy for each file). */
  pgliteDump?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 20 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    const db = drizzleNodePg({ client: pool }) as unknown as Db;
    const connectionString = options.databaseUrl;
    const connectDedicated = async () => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      return client;
    };
    return { db, kind: 'postgres', migrate: () => migratePostgres(pool), connectDedicated, close: () => pool.end() };
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
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    dump: () => client.dumpDataDir('gzip'),
    close: () => client.close(),
  };
}

/**
 * On PostgreSQL several processes may start at once; a session advisory lock lets one
 * migrate while the others wait, then find nothing left to do.
 */
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const lockId = 7_441_001;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [lockId]);
    await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    client.release();
  }
}
