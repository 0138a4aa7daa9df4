// One recorder among several workers on PostgreSQL (TEST_DATABASE_URL): a kill -9 of the
// leader hands recording to the other worker within 5 s, and two workers never walk the
// demo price at twice the pace.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from './global-setup.ts';
import { type RunningServer, killAll, startServer, stopServer } from './server-process.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('the market recorder with two workers on PostgreSQL', () => {
  const name = `tw_recorder_failover_${process.pid}`;
  const databaseUrl = url ? withDatabase(url, name) : '';
  const dirs: string[] = [];
  let admin: pg.Client;
  const env = (): NodeJS.ProcessEnv => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-failover-'));
    dirs.push(dataDir);
    return {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'info',
      DEMO_MODE: 'true',
      ROLE: 'worker',
      // Two workers on one host: each its own ops port.
      WORKER_PORT: '0',
    };
  };
  let first: RunningServer;
  let second: RunningServer;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    first = await startServer(env());
    second = await startServer(env());
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      [first, second].filter(Boolean).map((server) => stopServer(server, 'SIGTERM')),
    );
    killAll();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }, 60_000);

  const db = () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    return client.connect().then(() => client);
  };

  /** Seconds recorded for BTCUSDT in the last `windowS` seconds, and the latest one. */
  async function recent(
    client: pg.Client,
    windowS: number,
  ): Promise<{ count: number; latest: Date | null }> {
    const { rows } = await client.query<{ n: string; latest: Date | null }>(
      `select count(*)::text as n, max(ts) as latest from market_ticks where instrument = 'BTCUSDT' and ts > now() - make_interval(secs => $1)`,
      [windowS],
    );
    return { count: Number(rows[0]?.n), latest: rows[0]?.latest ?? null };
  }

  it(
    'exactly one records; after a kill -9 of it the other takes over within 5 s',
    { timeout: 90_000 },
    async () => {
      const client = await db();
      try {
        const deadline = Date.now() + 20_000;
        while ((await recent(client, 5)).count < 3 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 250));
        const leaders = [first, second].filter((server) =>
          server.output().includes('this process records now'),
        );
        expect(leaders).toHaveLength(1);
        const leader = leaders[0] as RunningServer;
        const follower = leader === first ? second : first;
        expect(follower.output()).not.toContain('this process records now');

        leader.child.kill('SIGKILL');
        await leader.exited;
        const killedAt = Date.now();
        let resumedAfterMs: number | null = null;
        while (Date.now() - killedAt < 15_000) {
          const { latest } = await recent(client, 5);
          if (latest && latest.getTime() > killedAt) {
            resumedAfterMs = Date.now() - killedAt;
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(resumedAfterMs, follower.output().slice(-2000)).not.toBeNull();
        expect(resumedAfterMs as number).toBeLessThan(5_000);
        expect(follower.output()).toContain('this process records now');
        // One walk, one step a second: the demo price does not move faster with two workers.
        const { rows } = await client.query<{ n: string }>(
          `select count(*)::text as n from market_ticks where instrument = 'BTCUSDT' group by ts having count(*) > 1`,
        );
        expect(rows).toEqual([]);
      } finally {
        await client.end();
      }
    },
  );
});
