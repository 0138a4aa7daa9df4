// Issue 31: a worker (ROLE=worker) serves /api/health, /api/ready and /metrics on WORKER_PORT
// and nothing else; an API node serves the same on METRICS_PORT, with no token, while /metrics
// on its public port stays closed. On PostgreSQL each connection names its role and node.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from './global-setup.ts';
import {
  type RunningServer,
  killAll,
  spawnServer,
  startServer,
  stopServer,
} from './server-process.ts';

const url = process.env.TEST_DATABASE_URL;
/** On PostgreSQL, a database of this file's own (the servers seed the demo into it). */
const name = `tw_ops_${process.pid}`;
const databaseUrl = url ? withDatabase(url, name) : undefined;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement);
  await client.end();
}

beforeAll(async () => {
  if (!url) return;
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
});

afterAll(async () => {
  killAll();
  if (url) await admin(`drop database if exists ${name} with (force)`);
});

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: { accept: '*/*' } });
  return { status: response.status, text: await response.text() };
}

/** Polls `read` until `done` holds or 30 s pass; returns the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    WEB_DIST: '/nonexistent',
    LOG_LEVEL: 'info',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ops-')),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DEMO_MODE: 'true' } : {}),
    ...extra,
  };
}

describe('the ops port', () => {
  it('a worker serves health, readiness and metrics on WORKER_PORT, and no API', async () => {
    const nodeName = `ops-worker-${process.pid}`;
    const worker: RunningServer = await startServer(
      environment({ ROLE: 'worker', WORKER_PORT: '0', NODE_NAME: nodeName }),
    );
    try {
      expect(worker.baseUrl).toBeUndefined();
      const ops = worker.opsUrl as string;
      expect(ops).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await get(`${ops}/api/health`);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.text)).toMatchObject({ data: { status: 'ok', role: 'worker' } });
      // Ready once the recorder's walk has a fresh quote and the rest answers.
      const ready = await until(
        () => get(`${ops}/api/ready`),
        (reply) => reply.status === 200,
      );
      expect(ready.status).toBe(200);
      const metrics = await until(
        () => get(`${ops}/metrics`),
        (reply) => reply.text.includes('tradewind_tick_age_seconds{'),
      );
      expect(metrics.status).toBe(200);
      // The worker's own work: the recorder's ages, the job rounds, the settling process's overdue count.
      expect(metrics.text).toMatch(
        /^tradewind_tick_age_seconds\{instrument="BTCUSDT",source="\w+"\} [\d.e-]+$/m,
      );
      expect(metrics.text).toMatch(/^tradewind_orders_overdue 0$/m);
      expect(metrics.text).toContain('process_resident_memory_bytes');
      // Nothing else: not the API, not the web app.
      for (const url of ['/api/v1/config', '/', '/Login'])
        expect((await get(`${ops}${url}`)).status).toBe(404);
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ application_name: string }>(
            'select distinct application_name from pg_stat_activity where application_name like $1',
            [`%${nodeName}`],
          );
          expect(rows.map((row) => row.application_name)).toEqual([`tradewind-worker-${nodeName}`]);
        } finally {
          await client.end();
        }
      }
    } finally {
      expect(await stopServer(worker, 'SIGTERM')).toBe(0);
    }
  });

  it('a WORKER_PORT someone chose that is taken stops the worker with one clear line', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const worker = spawnServer(environment({ ROLE: 'worker', WORKER_PORT: String(port) }));
      expect(await worker.exited).toBe(1);
      expect(worker.output()).toContain(
        `WORKER_PORT ${port} could not be opened (EADDRINUSE): choose a free port`,
      );
      expect(worker.output()).not.toContain('    at ');
    } finally {
      taken.close();
    }
  });

  it('an API node serves metrics on METRICS_PORT without a token; its public /metrics stays a 404', async () => {
    const node = await startServer(environment({ ROLE: 'all', METRICS_PORT: '0' }));
    try {
      const base = node.baseUrl as string;
      const ops = node.opsUrl as string;
      expect(ops).not.toBe(base);
      await get(`${base}/api/v1/config`);
      expect((await get(`${base}/metrics`)).status).toBe(404);
      const metrics = await get(`${ops}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.text).toMatch(
        /^tradewind_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/config",status="200"\} 1$/m,
      );
      expect((await get(`${ops}/api/health`)).status).toBe(200);
    } finally {
      expect(await stopServer(node, 'SIGTERM')).toBe(0);
    }
  });
});
