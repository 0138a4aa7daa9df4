// `npm run migrate` and MIGRATE_ON_START (issue 30: "every process migrates at boot"), and the
// connections a node holds (DB_POOL_MAX, DB_PIPELINE_POOL_MAX; "each process holds a fixed 25").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_LOCK_FILE, acquireDataLock } from '../src/platform/data-lock.ts';
import { MIGRATIONS_DIR, openDatabase, queryRows } from '../src/platform/db.ts';
import { withDatabase } from './global-setup.ts';
import {
  demoToken,
  killAll,
  runCli,
  spawnServer,
  startServer,
  stopServer,
} from './server-process.ts';

const tags = (
  JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  }
).entries.map((entry) => entry.tag);
const appliedAll = `applied ${tags.length} migrations, ${tags[0]} … ${tags.at(-1)}`;

const baseEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  WEB_DIST: '/nonexistent',
  LOG_LEVEL: 'info',
  ...extra,
});

describe('npm run migrate and MIGRATE_ON_START on the embedded database', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-migrate-'));
    dirs.push(dir);
    return dir;
  };
  let migrated = '';
  afterAll(() => {
    killAll();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'applies every migration to a fresh DATA_DIR and exits; a second run finds nothing to do',
    { timeout: 90_000 },
    async () => {
      migrated = freshDir();
      const first = await runCli(baseEnv({ DATA_DIR: migrated }), 'migrate');
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(`the embedded database in ${migrated}: ${appliedAll}`);
      expect(fs.existsSync(path.join(migrated, DATA_LOCK_FILE))).toBe(false);
      const database = await openDatabase({ dataDir: migrated });
      try {
        expect(await database.pendingMigrations()).toEqual([]);
        const [row] = await queryRows<{ count: number }>(
          database.db,
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
        );
        expect(row?.count).toBe(tags.length);
        await database.db.execute(sql`select count(*) from users`);
      } finally {
        await database.close();
      }
      const second = await runCli(baseEnv({ DATA_DIR: migrated }), 'migrate');
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('is up to date: nothing to apply');
    },
  );

  it('refuses while another process holds DATA_DIR, and creates nothing', async () => {
    const dir = freshDir();
    // This test's own process stands for the running server.
    const lock = acquireDataLock(dir);
    try {
      const refused = await runCli(baseEnv({ DATA_DIR: dir }), 'migrate');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`DATA_DIR ${dir} is in use by process ${process.pid}`);
      expect(refused.stdout).toBe('');
      expect(fs.readdirSync(dir)).toEqual([DATA_LOCK_FILE]);
    } finally {
      lock.release();
    }
  });

  it(
    'MIGRATE_ON_START=false: a server whose database lacks a migration refuses to start, naming npm run migrate; once it has them all it starts without migrating',
    { timeout: 120_000 },
    async () => {
      // As if the code were one migration newer than the database: the latest record goes.
      const database = await openDatabase({ dataDir: migrated });
      const [latest] = await queryRows<{ hash: string; created_at: string }>(
        database.db,
        sql`delete from drizzle.__drizzle_migrations
            where created_at = (select max(created_at) from drizzle.__drizzle_migrations)
            returning hash, created_at::text`,
      );
      expect(await database.pendingMigrations()).toEqual([tags.at(-1)]);
      await database.close();

      const refused = spawnServer(baseEnv({ DATA_DIR: migrated, MIGRATE_ON_START: 'false' }));
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        `MIGRATE_ON_START=false and the database lacks migrations (${tags.at(-1)}): run \`npm run migrate\` against it, then start the server`,
      );
      expect(refused.output()).not.toContain('Server listening');

      const restore = await openDatabase({ dataDir: migrated });
      await restore.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${latest?.hash}, ${latest?.created_at}::bigint)`,
      );
      await restore.close();
      const server = await startServer(baseEnv({ DATA_DIR: migrated, MIGRATE_ON_START: 'false' }));
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(await stopServer(server, 'SIGTERM')).toBe(0);
    },
  );
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('npm run migrate, MIGRATE_ON_START and DB_POOL_MAX on PostgreSQL', () => {
  const name = `tw_migrate_${process.pid}`;
  const databaseUrl = url ? withDatabase(url, name) : '';
  let dataDir = '';
  const env = (extra: Record<string, string> = {}) =>
    baseEnv({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ...extra });
  const admin = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-migrate-pg-'));
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
  });
  afterAll(async () => {
    killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('MIGRATE_ON_START=false on a fresh database: the node refuses to start and creates nothing', async () => {
    const refused = spawnServer(env({ MIGRATE_ON_START: 'false' }));
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(
      `MIGRATE_ON_START=false and the database lacks migrations (${tags.length} migrations, ${tags[0]} … ${tags.at(-1)}): run \`npm run migrate\``,
    );
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ users: string | null; migrations: string | null }>(
      `select to_regclass('public.users')::text as users,
              to_regclass('drizzle.__drizzle_migrations')::text as migrations`,
    );
    await client.end();
    expect(rows[0]).toEqual({ users: null, migrations: null });
  });

  it('two runs at once: one applies every migration, the other finds nothing; both exit 0', async () => {
    const runs = await Promise.all([runCli(env(), 'migrate'), runCli(env(), 'migrate')]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const where = `postgres://127.0.0.1:${new URL(databaseUrl).port || '5432'}/${name}`;
    expect(runs.map((run) => run.stdout.trim()).sort()).toEqual(
      [`${where} is up to date: nothing to apply`, `${where}: ${appliedAll}`].sort(),
    );
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ count: number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    await client.end();
    expect(rows[0]?.count).toBe(tags.length);
  });

  it(
    'a node (ROLE api) under 40 concurrent requests holds at most DB_POOL_MAX + DB_PIPELINE_POOL_MAX + 1 connections',
    { timeout: 60_000 },
    async () => {
      const server = await startServer(
        env({
          ROLE: 'api',
          MIGRATE_ON_START: 'false',
          DEMO_MODE: 'true',
          RATE_LIMIT_ENABLED: 'false',
          DB_POOL_MAX: '2',
          DB_PIPELINE_POOL_MAX: '1',
        }),
      );
      const baseUrl = server.baseUrl as string;
      const token = await demoToken(baseUrl);
      const counts: number[] = [];
      let loading = true;
      const sampling = (async () => {
        while (loading) {
          const [row] = await admin<{ count: number }>(
            'select count(*)::int as count from pg_stat_activity where datname = $1',
            [name],
          );
          counts.push(row?.count ?? 0);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      for (let round = 0; round < 5; round += 1) {
        const replies = await Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(`${baseUrl}/api/v1/wallet/balances`, {
              headers: { authorization: `Bearer ${token}` },
            }),
          ),
        );
        expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
      }
      loading = false;
      await sampling;
      // The main pool's 2 and the relay's LISTEN connection; the pipeline pool is for orders.
      expect(Math.max(...counts)).toBeLessThanOrEqual(2 + 1 + 1);
      expect(Math.max(...counts)).toBeGreaterThanOrEqual(3);
      expect(await stopServer(server, 'SIGTERM')).toBe(0);
    },
  );
});
