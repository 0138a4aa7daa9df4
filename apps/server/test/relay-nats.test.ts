import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSocket } from './socket-frames.ts';
import { buildApp } from '../src/app.ts';
import { MarketRecorder, TICKS_TOPIC } from '../src/modules/market/recorder.ts';
import { ManualClock } from '../src/platform/clock.ts';
import type { Database } from '../src/platform/db.ts';
import { NatsRelay } from '../src/platform/events/nats-relay.ts';
import { HUB_TOPIC } from '../src/platform/ws.ts';
import { T0, openTestDatabase, registerUser, testConfig } from './harness.ts';
import { cuttableProxy } from './nats-proxy.ts';
import { FixedFeed } from './prices.ts';

const natsUrl = process.env.TEST_NATS_URL;
if (!natsUrl)
  console.info(
    'relay-nats.test.ts skipped: set TEST_NATS_URL=nats://127.0.0.1:4222 (a NATS server) to run it',
  );

async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Cross-node events over NATS (issue 30, decision 0027): two app instances on one database,
 * each with its own NATS connection, stand in for two API nodes; a third without sockets
 * stands in for a worker. Node A reaches NATS through a proxy the test can cut.
 */
describe.skipIf(!natsUrl)('real-time across nodes over NATS subjects (TEST_NATS_URL)', () => {
  let database: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let worker: FastifyInstance;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  const clock = new ManualClock(T0);
  // A prefix of its own: other runs on the same NATS server never reach this one.
  const prefix = `tw${crypto.randomBytes(4).toString('hex')}`;
  let url: string;
  const relayOf = (app: FastifyInstance) => app.services.relay as NatsRelay;

  beforeAll(async () => {
    database = await openTestDatabase();
    proxy = await cuttableProxy(new URL(natsUrl as string));
    a = await buildApp({
      config: testConfig({ NATS_URL: proxy.url, NATS_SUBJECT_PREFIX: prefix }),
      database,
      clock,
      logger: false,
    });
    b = await buildApp({
      config: testConfig({ NATS_URL: natsUrl as string, NATS_SUBJECT_PREFIX: prefix }),
      database,
      clock,
      logger: false,
    });
    worker = await buildApp({
      config: testConfig({ NATS_URL: natsUrl as string, NATS_SUBJECT_PREFIX: prefix }),
      database,
      clock,
      logger: false,
      sockets: false,
    });
    await Promise.all([a.ready(), b.ready(), worker.ready()]);
    await a.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(a.server.address() as AddressInfo).port}/ws`;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await worker?.close();
    await proxy?.close();
    await database?.close();
  });

  it('every node uses the NATS relay when NATS_URL is set', () => {
    for (const app of [a, b, worker]) expect(app.services.relay).toBeInstanceOf(NatsRelay);
    expect([a, b, worker].every((app) => relayOf(app).connected)).toBe(true);
    // A worker has no sockets: it subscribes to nothing.
    expect(relayOf(worker).subjects).toEqual([]);
  });

  it("a user event published on another node reaches the user's socket, once, in order", async () => {
    const { token, uid } = await registerUser(a);
    const { socket, next } = await openSocket(url);
    socket.send(JSON.stringify({ op: 'auth', token, id: 1 }));
    expect(await next()).toEqual({ op: 'auth', id: 1, ok: true });
    expect(relayOf(a).subjects).toContain(`${prefix}.hub.user.${uid}`);
    await relayOf(a).flush();
    expect(b.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 1 })).toBe(0);
    expect(await next()).toEqual({
      channel: `user.${uid}`,
      data: { type: 'balance.changed', n: 1 },
    });
    // A's own publish is delivered at once and never comes back from NATS (noEcho).
    expect(a.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 2 })).toBe(1);
    worker.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 3 });
    expect(await next()).toMatchObject({ data: { n: 2 } });
    expect(await next()).toMatchObject({ data: { n: 3 } });
    // Node B holds no socket of this user: it was never sent the events.
    expect(relayOf(b).received.get(HUB_TOPIC) ?? 0).toBe(0);
    socket.close();
    await until(() => !relayOf(a).subjects.includes(`${prefix}.hub.user.${uid}`), 'unsubscribed');
  });

  it('a node receives the ticks of the instruments its sockets watch, and nothing of the others', async () => {
    const { socket, next } = await openSocket(url);
    socket.send(
      JSON.stringify({ op: 'subscribe', channels: ['ticker.ETHUSDT', 'kline.ETHUSDT.1m'], id: 1 }),
    );
    expect(await next()).toMatchObject({ op: 'subscribe', ok: true });
    // Both channels need ETHUSDT's ticks: one subscription.
    expect(relayOf(a).subjects.filter((s) => s.startsWith(`${prefix}.market.ticks.`))).toEqual([
      `${prefix}.market.ticks.ETHUSDT`,
    ]);
    await relayOf(a).flush();
    const receivedA = relayOf(a).received.get(TICKS_TOPIC) ?? 0;
    const receivedB = relayOf(b).received.get(TICKS_TOPIC) ?? 0;
    clock.advance(1_000);
    const feed = new FixedFeed();
    feed.set({ ETHUSDT: '3312.34', BTCUSDT: '91000.5', EURUSD: '1.0871' });
    const recorder = new MarketRecorder({
      db: database.db,
      clock,
      feed,
      relay: worker.services.relay,
    });
    expect(await recorder.recordOnce()).toBe(3);
    const messages = [await next(), await next()].sort((x, y) =>
      String(x.channel).localeCompare(String(y.channel)),
    );
    expect(messages[0]).toMatchObject({
      channel: 'kline.ETHUSDT.1m',
      data: { symbol: 'ETHUSDT', candle: { c: '3312.34' } },
    });
    expect(messages[1]).toMatchObject({ channel: 'ticker.ETHUSDT', data: { price: '3312.34' } });
    await relayOf(worker).flush();
    await relayOf(a).flush();
    // Three instruments recorded: A got ETHUSDT's event only, B (no sockets watching) none.
    expect((relayOf(a).received.get(TICKS_TOPIC) ?? 0) - receivedA).toBe(1);
    expect((relayOf(b).received.get(TICKS_TOPIC) ?? 0) - receivedB).toBe(0);

    socket.send(
      JSON.stringify({
        op: 'unsubscribe',
        channels: ['ticker.ETHUSDT', 'kline.ETHUSDT.1m'],
        id: 2,
      }),
    );
    expect(await next()).toMatchObject({ op: 'unsubscribe', ok: true });
    expect(relayOf(a).subjects.filter((s) => s.startsWith(`${prefix}.market.ticks.`))).toEqual([]);
    await relayOf(a).flush();
    clock.advance(1_000);
    feed.set({ ETHUSDT: '3313.00', BTCUSDT: '91001', EURUSD: '1.0872' });
    expect(await recorder.recordOnce()).toBe(3);
    await relayOf(worker).flush();
    await relayOf(a).flush();
    expect((relayOf(a).received.get(TICKS_TOPIC) ?? 0) - receivedA).toBe(1);
    socket.close();
  });

  it('after the connection is cut, the node reconnects and subscribes again, to what its sockets hold now', async () => {
    const first = await registerUser(a);
    const second = await registerUser(a);
    const one = await openSocket(url);
    one.socket.send(JSON.stringify({ op: 'auth', token: first.token, id: 1 }));
    expect(await one.next()).toMatchObject({ op: 'auth', ok: true });
    await relayOf(a).flush();

    // B's socket of the first user, to see what A publishes while it is away.
    await b.listen({ port: 0, host: '127.0.0.1' });
    const onB = await openSocket(`ws://127.0.0.1:${(b.server.address() as AddressInfo).port}/ws`);
    onB.socket.send(JSON.stringify({ op: 'auth', token: first.token, id: 1 }));
    expect(await onB.next()).toMatchObject({ op: 'auth', ok: true });
    await relayOf(b).flush();

    const lost = relayOf(a).disconnects;
    expect(proxy.cut()).toBeGreaterThan(0);
    // Counted, not polled: on a busy machine the client may be back before a poll sees it away.
    await until(() => relayOf(a).disconnects > lost, 'disconnected');
    // Sent while A is away: kept, and sent once A is back (the client alone would drop it).
    expect(a.services.hub.publishToUser(Number(first.uid), { type: 'while-away' })).toBe(1);
    expect(await one.next()).toMatchObject({ data: { type: 'while-away' } });
    // While A is away, a second user signs in on A's socket server: wanted, not yet subscribed.
    const two = await openSocket(url);
    two.socket.send(JSON.stringify({ op: 'auth', token: second.token, id: 1 }));
    expect(await two.next()).toMatchObject({ op: 'auth', ok: true });

    // Back once the client has reconnected through the proxy and the server has its subscriptions.
    await until(() => relayOf(a).connected, 'reconnected');
    let n = 0;
    const got = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('no event after the reconnect')), 8_000);
      const tick = setInterval(() => {
        n += 1;
        b.services.hub.publishToUser(Number(first.uid), { type: 'ping', n });
        b.services.hub.publishToUser(Number(second.uid), { type: 'ping', n });
      }, 100);
      void Promise.all([one.next(), two.next()]).then((frames) => {
        clearInterval(tick);
        clearTimeout(deadline);
        resolve(frames);
      });
    });
    expect(got[0]).toMatchObject({ channel: `user.${first.uid}`, data: { type: 'ping' } });
    expect(got[1]).toMatchObject({ channel: `user.${second.uid}`, data: { type: 'ping' } });
    expect(await onB.next()).toMatchObject({ data: { type: 'while-away' } });
    one.socket.close();
    two.socket.close();
    onB.socket.close();
  });
});
