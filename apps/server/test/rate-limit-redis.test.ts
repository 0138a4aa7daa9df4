import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type TestApp, call, createTestApp, testConfig, uniqueEmail } from './harness.ts';

/**
 * Issue 30: rate limits lived in each process, so two API nodes gave an address two budgets
 * (10 wrong sign-ins refused on node 1, 10 more accepted on node 2). With REDIS_URL set,
 * every node counts in one place.
 */

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl)
  console.warn(
    'rate-limit-redis.test.ts: the shared-counter cases skipped: set TEST_REDIS_URL=redis://127.0.0.1:6379 to run them',
  );

/** Each run its own keys, so that runs and other installs on the same Redis never meet. */
const runPrefix = () => `twtest-${crypto.randomBytes(4).toString('hex')}`;

async function twoNodes(env: Record<string, string>): Promise<{
  t: TestApp;
  nodeB: FastifyInstance;
  close: () => Promise<void>;
}> {
  const all = { RATE_LIMIT_ENABLED: 'true', ...env };
  const t = await createTestApp({ env: all });
  const nodeB = await buildApp({
    config: testConfig(all),
    database: t.database,
    clock: t.clock,
    logger: false,
  });
  await nodeB.ready();
  return {
    t,
    nodeB,
    close: async () => {
      await nodeB.close();
      await t.close();
    },
  };
}

/** A wrong sign-in for a new address each time: the per-account throttle never comes into it. */
const wrongSignIn = (app: FastifyInstance, ip: string) =>
  call(app, 'POST', '/api/v1/auth/login', {
    body: { channel: 'email', account: uniqueEmail(), password: 'wrong-pass-1' },
    ip,
  });

describe('without REDIS_URL every process counts on its own (the embedded default)', () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  beforeAll(async () => {
    nodes = await twoNodes({});
  });
  afterAll(() => nodes.close());

  it('one address gets ten sign-ins on each of two nodes', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await wrongSignIn(nodes.t.app, '10.3.0.1')).status);
    expect(codes.slice(0, 10).every((code) => code !== 429)).toBe(true);
    expect(codes[10]).toBe(429);
    // Node B never saw the address: its own count starts at zero.
    expect((await wrongSignIn(nodes.nodeB, '10.3.0.1')).status).not.toBe(429);
  });
});

describe.skipIf(!redisUrl)('with REDIS_URL the nodes share one count (TEST_REDIS_URL)', () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  let prefix: string;
  let redis: Redis;
  beforeAll(async () => {
    prefix = runPrefix();
    redis = new Redis(redisUrl as string);
    nodes = await twoNodes({
      REDIS_URL: redisUrl as string,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: '20',
    });
  });
  afterAll(async () => {
    await nodes.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('10 wrong sign-ins spread over two nodes, the 11th refused on either', async () => {
    const ip = '10.3.1.1';
    const replies = [];
    for (let i = 0; i < 10; i++)
      replies.push(await wrongSignIn(i % 2 === 0 ? nodes.t.app : nodes.nodeB, ip));
    expect(replies.map((r) => r.status).filter((s) => s === 429)).toEqual([]);
    expect(replies.every((r) => r.body.code !== 0)).toBe(true);
    const eleventhB = await wrongSignIn(nodes.nodeB, ip);
    expect(eleventhB.status).toBe(429);
    expect(eleventhB.body.code).toBe(429);
    expect(Number(eleventhB.response.headers['retry-after'])).toBeGreaterThan(0);
    expect((await wrongSignIn(nodes.t.app, ip)).status).toBe(429);
    // Another address still has its whole budget.
    expect((await wrongSignIn(nodes.t.app, '10.3.1.2')).status).not.toBe(429);
    // The counter is in Redis, under this install's prefix, and holds no address in clear
    // beyond the key the plugin makes (the route and `ip:` key).
    const keys = await redis.keys(`${prefix}:rate:*`);
    expect(keys.some((k) => k.includes('/api/v1/auth/login') && k.endsWith(`ip:${ip}`))).toBe(true);
  });

  it('the every-request budget (RATE_LIMIT_PER_MINUTE) is one budget across nodes', async () => {
    const ip = '10.3.2.1';
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const reply = await call(
        i % 2 === 0 ? nodes.t.app : nodes.nodeB,
        'GET',
        '/api/v1/market/instruments',
        {
          ip,
        },
      );
      statuses.push(reply.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('with REDIS_URL and Redis not answering', () => {
  let nodes: Awaited<ReturnType<typeof twoNodes>>;
  let closedPort: number;
  beforeAll(async () => {
    // A port that was just free: nothing listens there.
    closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    nodes = await twoNodes({ REDIS_URL: `redis://127.0.0.1:${closedPort}` });
  });
  afterAll(() => nodes.close());

  it('requests are answered at once, uncounted, and the per-account throttle still holds', async () => {
    const started = Date.now();
    const reply = await wrongSignIn(nodes.t.app, '10.3.3.1');
    expect(reply.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(3_000);
    // Six wrong passwords for one account from six addresses: the sixth waits (database throttle).
    const account = uniqueEmail();
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await call(i % 2 === 0 ? nodes.t.app : nodes.nodeB, 'POST', '/api/v1/auth/login', {
        body: { channel: 'email', account, password: 'wrong-pass-1' },
        ip: `10.3.4.${i + 1}`,
      });
      codes.push(r.status);
    }
    expect(codes.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(codes.slice(5)).toContain(429);
  });
});
