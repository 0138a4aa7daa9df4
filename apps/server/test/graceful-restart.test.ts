// Readiness and the graceful stop of one node (issue 30): `/api/ready` for the load balancer,
// the drain after SIGTERM, sockets told 1001. Two nodes under load on PostgreSQL:
// graceful-restart-postgres.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, call, createTestApp } from './harness.ts';
import { killAll, startServer } from './server-process.ts';
import { openSocket } from './socket-frames.ts';

describe('GET /api/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Rate limits on and tiny: the probe must never be among what they refuse.
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  it('answers 200 {ready: true} while the database answers, and is never rate-limited', async () => {
    for (let i = 0; i < 12; i += 1) {
      const reply = await call<{ ready: boolean }>(t.app, 'GET', '/api/ready');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ code: 0, data: { ready: true } });
    }
    // The same address's other requests are limited meanwhile.
    const statuses = [];
    for (let i = 0; i < 8; i += 1)
      statuses.push((await call(t.app, 'GET', '/api/v1/config')).status);
    expect(statuses).toContain(429);
  });

  it('a failing or silent check makes it 503 with the names of what fails', async () => {
    let failing = true;
    t.app.readiness.add({
      name: 'example',
      run: async () => {
        if (failing) throw new Error('down');
      },
    });
    const reply = await call<{ ready: boolean; failing: string[] }>(t.app, 'GET', '/api/ready');
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({
      code: 503,
      data: { ready: false, failing: ['example'] },
    });
    expect(reply.response.headers['cache-control']).toBe('no-store');
    failing = false;
    expect((await call(t.app, 'GET', '/api/ready')).status).toBe(200);
    // A check that never answers fails by the timeout rather than hold the probe.
    t.app.readiness.add({ name: 'silent', run: () => new Promise(() => undefined) });
    const silent = await call<{ failing: string[] }>(t.app, 'GET', '/api/ready');
    expect(silent.status).toBe(503);
    expect(silent.body.data.failing).toEqual(['silent']);
  });

  it('draining: 503 "draining" at once, while every other route still answers, with Connection: close', async () => {
    expect(t.app.readiness.draining).toBe(false);
    expect((await call(t.app, 'GET', '/api/health')).response.headers.connection).not.toBe('close');
    t.app.readiness.drain();
    const ready = await call<{ ready: boolean; failing: string[] }>(t.app, 'GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data).toEqual({ ready: false, failing: ['draining'] });
    const health = await call<{ status: string }>(t.app, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body.data.status).toBe('ok');
    // So that no keep-alive connection is idle, and cut, when the listener closes.
    expect(health.response.headers.connection).toBe('close');
  });
});

describe('SIGTERM on one node (a real process, embedded database)', () => {
  let dataDir = '';
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-drain-'));
  });
  afterAll(() => {
    killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'not ready at once, serving for DRAIN_MS, then refusing; sockets closed with 1001; exit 0',
    { timeout: 90_000 },
    async () => {
      const drainMs = 1_500;
      const server = await startServer({
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'info',
        DRAIN_MS: String(drainMs),
      });
      const baseUrl = server.baseUrl as string;
      const { socket } = await openSocket(`${baseUrl.replace('http', 'ws')}/ws`);
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
      );
      const probe = (url: string) =>
        fetch(`${baseUrl}${url}`).then(
          (r) => r.status,
          (error: unknown) => (error as { cause?: { code?: string } }).cause?.code ?? 'error',
        );
      expect(await probe('/api/ready')).toBe(200);

      const signalledAtMs = performance.now();
      server.child.kill('SIGTERM');
      const seen: { atMs: number; ready: number | string; health: number | string }[] = [];
      while (server.child.exitCode === null) {
        const [ready, health] = await Promise.all([probe('/api/ready'), probe('/api/health')]);
        seen.push({ atMs: performance.now() - signalledAtMs, ready, health });
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await server.exited).toBe(0);

      // A probe the server took before it handled the signal may still say 200; from the first
      // 503 on, it is not ready and serves everything else until the listener closes.
      const notReady = seen.findIndex((s) => s.ready === 503);
      const closedAt = seen.findIndex((s) => s.health !== 200);
      const draining = seen.slice(notReady, closedAt === -1 ? seen.length : closedAt);
      expect(notReady, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
      expect(seen[notReady]?.atMs).toBeLessThan(500);
      expect(draining.length, JSON.stringify(seen)).toBeGreaterThan(5);
      expect(new Set(draining.map((s) => s.ready))).toEqual(new Set([503]));
      expect(draining.at(-1)?.atMs).toBeGreaterThan(drainMs - 200);
      // Then refused (or, queued on the listener as it closed, reset before anything was sent).
      for (const s of seen.slice(draining.length + notReady))
        expect(['ECONNREFUSED', 'ECONNRESET']).toContain(s.health);
      expect(await closed).toEqual({ code: 1001, reason: 'server restarting' });
      expect(server.output()).toContain('"msg":"drained: closing the listener"');
    },
  );
});
