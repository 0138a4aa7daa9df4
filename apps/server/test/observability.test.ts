// Issue 31: liveness without the database, readiness that names what fails, request ids that
// survive a hop, and /metrics behind its token. (The alert conditions: alerts.test.ts.)
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type Database, queryRows } from '../src/platform/db.ts';
import { T0, openTestDatabase, testConfig } from './harness.ts';

const METRICS_TOKEN = 'a-long-enough-scrape-token';

interface Built {
  app: FastifyInstance;
  database: Database;
  logs: Record<string, unknown>[];
}

const built: Built[] = [];
afterEach(async () => {
  for (const { app, database } of built.splice(0)) {
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
  }
});

/** An app whose log lines (JSON, level info and up) are kept in `logs`. */
async function build(env: Record<string, string> = {}): Promise<Built> {
  const database = await openTestDatabase();
  const logs: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({
    config: testConfig({ LOG_LEVEL: 'info', ...env }),
    database,
    clock: new ManualClock(T0),
    logger: { level: 'info', stream },
  });
  await app.ready();
  const entry = { app, database, logs };
  built.push(entry);
  return entry;
}

describe('/api/health and /api/ready', () => {
  it('health answers without the database; ready says the database is what fails', async () => {
    const { app, database } = await build();
    expect((await app.inject('/api/ready')).json()).toMatchObject({ data: { ready: true } });
    await database.close();
    const health = await app.inject('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ code: 0, data: { status: 'ok', role: 'all' } });
    const ready = await app.inject('/api/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().data.failing).toContain('database');
  });

  it('a database missing a migration this code knows makes the node not ready, and ready again once applied', async () => {
    const { app, database, logs } = await build();
    const [last] = await queryRows<{ id: number; hash: string; created_at: string }>(
      database.db,
      sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    if (!last) throw new Error('no migrations recorded');
    await app.inject('/api/ready');
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    const ready = await app.inject('/api/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().data.failing).toEqual(['migrations']);
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, ${last.hash}, ${last.created_at}::bigint)`,
    );
    expect((await app.inject('/api/ready')).statusCode).toBe(200);
    // Each change of the answer is logged once, and counted.
    expect(logs.filter((line) => line.msg === 'not ready')).toHaveLength(1);
    expect(logs.filter((line) => line.msg === 'ready again')).toHaveLength(1);
    expect(await app.services.metrics.text()).toMatch(/^tradewind_readiness_changes_total 2$/m);
  });
});

describe('request ids', () => {
  it('a sane X-Request-Id is kept, returned, and in the request’s log lines', async () => {
    const { app, logs } = await build();
    const id = 'lb-7f3a9c2e-0001';
    const reply = await app.inject({ url: '/api/v1/config', headers: { 'x-request-id': id } });
    expect(reply.headers['x-request-id']).toBe(id);
    const lines = logs.filter((line) => line.reqId === id);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines[0]).toMatchObject({ node: expect.any(String), role: 'all' });
  });

  it('a missing or unsafe id is replaced by a fresh UUID, never a per-process counter', async () => {
    const { app, logs } = await build();
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const seen = new Set<string>();
    for (const header of [
      undefined,
      undefined,
      'two words',
      'x'.repeat(129),
      'forged\nline',
      '<script>',
      '',
    ]) {
      const reply = await app.inject({
        url: '/api/health',
        headers: header === undefined ? {} : { 'x-request-id': header },
      });
      const id = String(reply.headers['x-request-id']);
      expect(id).toMatch(uuid);
      seen.add(id);
    }
    expect(seen.size).toBe(7);
    expect(logs.some((line) => line.reqId === 'req-1')).toBe(false);
  });
});

describe('/metrics on the public port', () => {
  it('is a 404 without METRICS_TOKEN', async () => {
    const { app } = await build();
    const reply = await app.inject({ url: '/metrics', headers: { accept: '*/*' } });
    expect(reply.statusCode).toBe(404);
    expect(reply.body).not.toContain('tradewind_');
  });

  it('answers only with the bearer token, in Prometheus text format, with the metrics of what was served', async () => {
    const { app } = await build({ METRICS_TOKEN });
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${METRICS_TOKEN}x`,
      METRICS_TOKEN,
    ]) {
      const refused = await app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.body).not.toContain('tradewind_');
    }
    for (let i = 0; i < 3; i++) await app.inject('/api/v1/config');
    await app.inject('/api/v1/market/instruments/NOPE');
    const reply = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/plain; version=0.0.4');
    const text = reply.body;
    // By route pattern, never by raw URL.
    expect(text).toMatch(
      /^tradewind_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/config",status="200"\} 3$/m,
    );
    expect(text).not.toContain('NOPE');
    for (const name of [
      'tradewind_orders_placed_total',
      'tradewind_ws_connections 0',
      'tradewind_event_bus_connected 1',
      'tradewind_ready 1',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(text).toContain(name);
  });
});
