import type { AddressInfo } from 'node:net';
import {
  INSTRUMENT_SYMBOLS,
  KLINE_INTERVALS,
  klineMessageSchema,
  tickerSchema,
} from '@tradewind/contract/market';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSocket } from './socket-frames.ts';
import { liveSessions } from '../src/modules/auth/sessions.ts';
import { MarketBroadcaster } from '../src/modules/market/live.ts';
import { MarketRecorder, TICKS_TOPIC } from '../src/modules/market/recorder.ts';
import { LocalRelay } from '../src/platform/relay.ts';
import { Hub } from '../src/platform/ws.ts';
import { PASSWORD, type TestApp, call, createTestApp, registerUser } from './harness.ts';
import { FixedFeed } from './prices.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(() => t.close());

const open = () => openSocket(url);

describe('/ws', () => {
  it('answers ping, authenticates, and delivers to the user channel only after auth', async () => {
    const { token, uid } = await registerUser(t.app);
    const { socket, next } = await open();
    socket.send(JSON.stringify({ op: 'ping', id: 1 }));
    expect(await next()).toEqual({ op: 'pong', id: 1 });

    expect(t.app.services.hub.publishToUser(Number(uid), { type: 'test' })).toBe(0);
    socket.send(JSON.stringify({ op: 'auth', token, id: 2 }));
    expect(await next()).toEqual({ op: 'auth', id: 2, ok: true });
    expect(t.app.services.hub.publishToUser(Number(uid), { type: 'balance' })).toBe(1);
    expect(await next()).toEqual({ channel: `user.${uid}`, data: { type: 'balance' } });
    socket.close();
  });

  it('a socket whose session ended elsewhere stops getting the user channel; the other device keeps it', async () => {
    const { token, uid, account } = await registerUser(t.app);
    const login = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account, password: PASSWORD },
    });
    const phone = await open();
    const laptop = await open();
    phone.socket.send(JSON.stringify({ op: 'auth', token, id: 1 }));
    expect(await phone.next()).toEqual({ op: 'auth', id: 1, ok: true });
    laptop.socket.send(JSON.stringify({ op: 'auth', token: login.body.data.token, id: 1 }));
    expect(await laptop.next()).toEqual({ op: 'auth', id: 1, ok: true });
    laptop.socket.send(JSON.stringify({ op: 'subscribe', channel: 'ticker.BTCUSDT', id: 2 }));
    expect(await laptop.next()).toMatchObject({ op: 'subscribe', ok: true });

    // The phone signs every other device out.
    const revoked = await call<{ revoked: number }>(
      t.app,
      'POST',
      '/api/v1/auth/sessions/revoke-others',
      { token },
    );
    expect(revoked.body.data.revoked).toBe(1);
    const hub = t.app.services.hub;
    const isLive = (ids: number[]) => liveSessions(t.database.db, ids, t.clock.now());
    expect(await hub.dropEndedSessions(isLive)).toBe(1);
    expect(await laptop.next()).toEqual({ op: 'auth', ok: false, reason: 'session_ended' });
    expect(await hub.dropEndedSessions(isLive)).toBe(0);

    expect(hub.publishToUser(Number(uid), { type: 'balance.changed' })).toBe(1);
    expect(await phone.next()).toEqual({
      channel: `user.${uid}`,
      data: { type: 'balance.changed' },
    });
    // Public channels stay: the next message the laptop sees is the ticker, not the user's push.
    hub.publishLocal('ticker.BTCUSDT', { price: '1' });
    expect(await laptop.next()).toEqual({ channel: 'ticker.BTCUSDT', data: { price: '1' } });
    phone.socket.close();
    laptop.socket.close();
  });

  it('refuses a bad token, unknown channels, user channels by name, and bad JSON', async () => {
    const { uid } = await registerUser(t.app);
    const { socket, next } = await open();
    socket.send(JSON.stringify({ op: 'auth', token: 'A'.repeat(43) }));
    expect(await next()).toMatchObject({ op: 'auth', ok: false });
    socket.send(JSON.stringify({ op: 'subscribe', channel: `user.${uid}` }));
    expect(await next()).toMatchObject({ op: 'error', error: 'unknown_channel' });
    socket.send(JSON.stringify({ op: 'subscribe', channel: 'ticker.NOPE' }));
    expect(await next()).toMatchObject({ op: 'error', error: 'unknown_channel' });
    socket.send('{not json');
    expect(await next()).toMatchObject({ op: 'error', error: 'bad_json' });
    socket.close();
  });

  it('subscribes and unsubscribes several channels in one message, all or nothing', async () => {
    const { uid } = await registerUser(t.app);
    const hub = t.app.services.hub;
    const { socket, next } = await open();
    const send = (message: object) => socket.send(JSON.stringify(message));
    const held = () =>
      ['ticker.SOLUSDT', 'kline.SOLUSDT.1m', 'kline.SOLUSDT.5m'].filter((channel) =>
        hub.hasSubscribers(channel),
      );

    send({ op: 'subscribe', channels: ['ticker.SOLUSDT', 'kline.SOLUSDT.1m'], id: 1 });
    expect(await next()).toEqual({
      op: 'subscribe',
      id: 1,
      channels: ['ticker.SOLUSDT', 'kline.SOLUSDT.1m'],
      ok: true,
    });
    expect(held()).toEqual(['ticker.SOLUSDT', 'kline.SOLUSDT.1m']);
    hub.publishLocal('kline.SOLUSDT.1m', { n: 1 });
    expect(await next()).toEqual({ channel: 'kline.SOLUSDT.1m', data: { n: 1 } });

    // One channel it may not have refuses the whole batch, and the refusal names it.
    for (const bad of ['ticker.NOPE', `user.${uid}`, 42, '']) {
      send({ op: 'subscribe', channels: ['kline.SOLUSDT.5m', bad], id: 2 });
      expect(await next()).toEqual({
        op: 'error',
        id: 2,
        error: 'unknown_channel',
        channels: [bad],
      });
      send({ op: 'unsubscribe', channels: ['ticker.SOLUSDT', bad], id: 3 });
      expect(await next()).toEqual({
        op: 'error',
        id: 3,
        error: 'unknown_channel',
        channels: [bad],
      });
    }
    expect(held()).toEqual(['ticker.SOLUSDT', 'kline.SOLUSDT.1m']);
    // Not a list of one or more channels, or both forms at once.
    for (const channels of [[], 'ticker.SOLUSDT', null, { 0: 'ticker.SOLUSDT' }]) {
      send({ op: 'subscribe', channels, id: 4 });
      expect(await next()).toEqual({ op: 'error', id: 4, error: 'bad_message' });
    }
    send({ op: 'subscribe', channel: 'kline.SOLUSDT.5m', channels: ['kline.SOLUSDT.5m'], id: 5 });
    expect(await next()).toEqual({ op: 'error', id: 5, error: 'bad_message' });
    expect(held()).toEqual(['ticker.SOLUSDT', 'kline.SOLUSDT.1m']);

    // A tab switch: one message out, one in.
    send({ op: 'unsubscribe', channels: ['ticker.SOLUSDT', 'kline.SOLUSDT.1m'], id: 6 });
    expect(await next()).toEqual({
      op: 'unsubscribe',
      id: 6,
      channels: ['ticker.SOLUSDT', 'kline.SOLUSDT.1m'],
      ok: true,
    });
    send({ op: 'subscribe', channels: ['kline.SOLUSDT.5m', 'kline.SOLUSDT.5m'], id: 7 });
    expect(await next()).toMatchObject({ op: 'subscribe', id: 7, ok: true });
    expect(held()).toEqual(['kline.SOLUSDT.5m']);
    socket.close();
  });
});

describe('/ws market channels', () => {
  /** Records the given prices one second after the last, through the recorder wired to the app's relay (as the worker is). */
  async function record(prices: Parameters<FixedFeed['set']>[0]) {
    t.clock.advance(1_000);
    const feed = new FixedFeed();
    feed.set(prices);
    await new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feed,
      relay: t.app.services.relay,
    }).recordOnce();
  }

  async function subscribe(channel: string) {
    const client = await open();
    client.socket.send(JSON.stringify({ op: 'subscribe', channel, id: channel }));
    expect(await client.next()).toEqual({ op: 'subscribe', id: channel, channel, ok: true });
    return client;
  }

  it('every instrument has a ticker channel and a kline channel per interval; nothing else is accepted', async () => {
    const { socket, next } = await open();
    // Some 350 messages, paced as a client must (20 a second) so the socket is not closed for
    // flooding; whole seconds, because ticks recorded later in this file are a second apart.
    let sent = 0;
    const send = (message: object) => {
      if (sent > 0 && sent % 20 === 0) t.clock.advance(1_000);
      sent += 1;
      socket.send(JSON.stringify(message));
    };
    for (const symbol of INSTRUMENT_SYMBOLS) {
      for (const channel of [
        `ticker.${symbol}`,
        ...KLINE_INTERVALS.map((interval) => `kline.${symbol}.${interval}`),
      ]) {
        send({ op: 'subscribe', channel });
        expect(await next(), channel).toMatchObject({ op: 'subscribe', ok: true });
        send({ op: 'unsubscribe', channel });
        expect(await next(), channel).toMatchObject({ op: 'unsubscribe', ok: true });
      }
    }
    for (const channel of [
      'kline.BTCUSDT.2m',
      'kline.NOPE.1m',
      'kline.BTCUSDT',
      'kline.btcusdt.1m',
      'ticker.BTCUSDT.1m',
    ]) {
      send({ op: 'subscribe', channel });
      expect(await next(), channel).toMatchObject({ op: 'error', error: 'unknown_channel' });
    }
    socket.close();
  });

  it('a recorded tick reaches ticker and kline subscribers: a full ticker with 24 h statistics and the current candle', async () => {
    const ticker = await subscribe('ticker.BTCUSDT');
    const minute = await subscribe('kline.BTCUSDT.1m');
    const hour = await subscribe('kline.BTCUSDT.1h');
    // Each recorded second is awaited on every socket before the next: on PostgreSQL the next insert could otherwise overtake a broadcast.
    const receive = async () => {
      const [tick, oneMinute, oneHour] = (await Promise.all([
        ticker.next(),
        minute.next(),
        hour.next(),
      ])) as { channel: string; data: unknown }[];
      return {
        tick: tick as { channel: string; data: unknown },
        oneMinute: oneMinute as { channel: string; data: unknown },
        oneHour: oneHour as { channel: string; data: unknown },
      };
    };
    await record({ BTCUSDT: '95000.00' });
    const first = await receive();
    expect(first.tick.channel).toBe('ticker.BTCUSDT');
    expect(tickerSchema.parse(first.tick.data)).toMatchObject({
      symbol: 'BTCUSDT',
      price: '95000',
      source: 'simulated',
      sourceLabel: 'simulated (demo data)',
      high24h: '95000',
      changePct: '0.00',
    });
    await record({ BTCUSDT: '95100.50' });
    const second = await receive();
    expect(tickerSchema.parse(second.tick.data)).toMatchObject({
      price: '95100.5',
      ts: t.clock.now().toISOString(),
      high24h: '95100.5',
      low24h: '95000',
      changePct: '0.11',
    });
    const minuteOpen = Math.floor(t.clock.now().getTime() / 60_000) * 60_000;
    expect({
      channel: second.oneMinute.channel,
      ...klineMessageSchema.parse(second.oneMinute.data),
    }).toEqual({
      channel: 'kline.BTCUSDT.1m',
      symbol: 'BTCUSDT',
      interval: '1m',
      candle: { t: minuteOpen, o: '95000', h: '95100.5', l: '95000', c: '95100.5', v: '0' },
    });
    const hourOpen = Math.floor(t.clock.now().getTime() / 3_600_000) * 3_600_000;
    expect(second.oneHour.channel).toBe('kline.BTCUSDT.1h');
    expect(klineMessageSchema.parse(second.oneHour.data).candle).toMatchObject({
      t: hourOpen,
      c: '95100.5',
    });
    for (const client of [ticker, minute, hour]) client.socket.close();
  });

  it('one broadcast is serialised once for all its subscribers', async () => {
    const clients = [
      await subscribe('kline.ETHUSDT.5m'),
      await subscribe('kline.ETHUSDT.5m'),
      await subscribe('kline.ETHUSDT.5m'),
    ];
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      await record({ ETHUSDT: '3300.00' });
      const messages = await Promise.all(clients.map((client) => client.next()));
      expect(messages.every((m) => (m as { channel: string }).channel === 'kline.ETHUSDT.5m')).toBe(
        true,
      );
      const serialised = stringify.mock.calls.filter(
        ([value]) => (value as { channel?: string } | null)?.channel === 'kline.ETHUSDT.5m',
      );
      expect(serialised).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    for (const client of clients) client.socket.close();
  });

  it('nothing is computed or serialised for channels nobody subscribes to', async () => {
    const relay = new LocalRelay();
    const hub = new Hub(relay);
    const broadcaster = new MarketBroadcaster({ db: t.database.db, clock: t.clock, hub, relay });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const event = {
        ts: t.clock.now().toISOString(),
        items: [{ symbol: 'ETHUSDT', tickId: '1', priceMinor: '330000', source: 'simulated' }],
      };
      expect(await broadcaster.broadcast(event)).toEqual([]);
      expect(hub.publish('ticker.ETHUSDT', { any: 'thing' })).toBe(0);
      relay.send(TICKS_TOPIC, JSON.stringify(event));
      await broadcaster.idle();
      expect(
        stringify.mock.calls.filter(
          ([value]) => typeof (value as { channel?: string } | null)?.channel === 'string',
        ),
      ).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
  });
});
