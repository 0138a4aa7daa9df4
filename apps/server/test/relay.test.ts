import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSocket } from './socket-frames.ts';
import { buildApp } from '../src/app.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { ManualClock } from '../src/platform/clock.ts';
import type { Database } from '../src/platform/db.ts';
import { MAX_NOTIFY_BYTES, PgRelay } from '../src/platform/relay.ts';
import { T0, openTestDatabase, registerUser, testConfig } from './harness.ts';
import { FixedFeed } from './prices.ts';

/**
 * Several server processes on one PostgreSQL (ARCHITECTURE §2): an event published in one
 * reaches the sockets of every other. Two app instances on the same database stand in for
 * an API process (A, with the socket) and a worker (B). PGlite is one process: skipped there.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'real-time across processes (PostgreSQL LISTEN/NOTIFY)',
  () => {
    let database: Database;
    let a: FastifyInstance;
    let b: FastifyInstance;
    const clock = new ManualClock(T0);
    let url: string;

    beforeAll(async () => {
      database = await openTestDatabase();
      a = await buildApp({ config: testConfig(), database, clock, logger: false });
      b = await buildApp({ config: testConfig(), database, clock, logger: false });
      await a.ready();
      await b.ready();
      await a.listen({ port: 0, host: '127.0.0.1' });
      url = `ws://127.0.0.1:${(a.server.address() as AddressInfo).port}/ws`;
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.close();
    });

    async function until(condition: () => boolean): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error('condition not met within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    const open = () => openSocket(url);

    it('both processes use the PostgreSQL relay, each with its own LISTEN connection, and each knows the other', async () => {
      for (const app of [a, b]) expect(app.services.relay).toBeInstanceOf(PgRelay);
      const [relayA, relayB] = [a.services.relay as PgRelay, b.services.relay as PgRelay];
      expect(relayA.listening && relayB.listening).toBe(true);
      expect(relayA.origin).not.toBe(relayB.origin);
      // B asked who listens when it started; A answered.
      await until(() => relayA.peerCount === 1 && relayB.peerCount === 1);
    });

    it('a third process is known to both while it runs, and forgotten as soon as it closes', async () => {
      const c = await buildApp({ config: testConfig(), database, clock, logger: false });
      await c.ready();
      const relays = [a, b].map((app) => app.services.relay as PgRelay);
      await until(
        () =>
          relays.every((relay) => relay.peerCount === 2) &&
          (c.services.relay as PgRelay).peerCount === 2,
      );
      await c.close();
      await until(() => relays.every((relay) => relay.peerCount === 1));
      expect(relays.every((relay) => relay.reachesOthers)).toBe(true);
    });

    it("a user event published in another process reaches the user's socket, once, in order", async () => {
      const { token, uid } = await registerUser(a);
      const { socket, next } = await open();
      socket.send(JSON.stringify({ op: 'auth', token, id: 1 }));
      expect(await next()).toEqual({ op: 'auth', id: 1, ok: true });
      // B has no socket for this user: it reports 0 local deliveries but the event still travels.
      expect(b.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 1 })).toBe(0);
      expect(await next()).toEqual({
        channel: `user.${uid}`,
        data: { type: 'balance.changed', n: 1 },
      });
      // A's own publish is delivered at once and not a second time when its notification comes back.
      expect(a.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 2 })).toBe(1);
      b.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 3 });
      expect(await next()).toMatchObject({ data: { n: 2 } });
      expect(await next()).toMatchObject({ data: { n: 3 } });
      // Too large for NOTIFY: B's own sockets would get it, other processes do not (and B logs it); what follows still arrives.
      b.services.hub.publishToUser(Number(uid), {
        type: 'big',
        blob: 'x'.repeat(MAX_NOTIFY_BYTES),
      });
      b.services.hub.publishToUser(Number(uid), { type: 'balance.changed', n: 4 });
      expect(await next()).toMatchObject({ data: { n: 4 } });
      socket.close();
    });

    it('a tick recorded in the worker process reaches ticker subscribers of the API process', async () => {
      const { socket, next } = await open();
      socket.send(JSON.stringify({ op: 'subscribe', channel: 'ticker.ETHUSDT', id: 1 }));
      expect(await next()).toMatchObject({ op: 'subscribe', ok: true });
      socket.send(JSON.stringify({ op: 'subscribe', channel: 'kline.ETHUSDT.1m', id: 2 }));
      expect(await next()).toMatchObject({ op: 'subscribe', ok: true });
      clock.advance(1_000);
      const feed = new FixedFeed();
      feed.set({ ETHUSDT: '3312.34' });
      const recorder = new MarketRecorder({
        db: database.db,
        clock,
        feed,
        relay: b.services.relay,
      });
      expect(b.services.hub.hasSubscribers('ticker.ETHUSDT')).toBe(false);
      expect(await recorder.recordOnce()).toBe(1);
      const messages = [await next(), await next()].sort((x, y) =>
        String(x.channel).localeCompare(String(y.channel)),
      );
      expect(messages[0]).toMatchObject({
        channel: 'kline.ETHUSDT.1m',
        data: { symbol: 'ETHUSDT', interval: '1m', candle: { c: '3312.34' } },
      });
      expect(messages[1]).toMatchObject({
        channel: 'ticker.ETHUSDT',
        data: {
          symbol: 'ETHUSDT',
          price: '3312.34',
          ts: clock.now().toISOString(),
          source: 'simulated',
        },
      });
      socket.close();
    });
  },
);
