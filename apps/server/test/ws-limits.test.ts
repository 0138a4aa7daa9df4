import type { AddressInfo } from 'node:net';
import { INSTRUMENT_SYMBOLS, KLINE_INTERVALS } from '@tradewind/contract/market';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { NewSocketBudget } from '../src/platform/ws.ts';
import { type TestApp, createTestApp } from './harness.ts';

// Behind a trusted proxy every client is told apart by X-Forwarded-For, which is how these
// tests open sockets "from" several addresses while all of them come from 127.0.0.1.
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(() => t.close());

interface Client {
  socket: WebSocket;
  next: () => Promise<Record<string, unknown>>;
  received: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
}

let addressSeq = 0;
/** A documentation address (RFC 5737) no other test uses. */
function newAddress(): string {
  addressSeq += 1;
  return `198.51.100.${addressSeq}`;
}

function open(from: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { 'x-forwarded-for': from } });
    const received: Record<string, unknown>[] = [];
    const queue: Record<string, unknown>[] = [];
    const waiters: ((m: Record<string, unknown>) => void)[] = [];
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      socket.on('close', (code, reason) => r({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      received.push(message);
      const waiter = waiters.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    socket.on('open', () =>
      resolve({
        socket,
        received,
        closed,
        next: () =>
          new Promise((r) =>
            queue.length ? r(queue.shift() as Record<string, unknown>) : waiters.push(r),
          ),
      }),
    );
    socket.on('unexpected-response', (request, response) => {
      request.destroy();
      reject(
        Object.assign(new Error(`refused with ${response.statusCode}`), {
          status: response.statusCode,
          retryAfter: response.headers['retry-after'],
        }),
      );
    });
    socket.on('error', reject);
  });
}

/** Sends one message, first moving the app's clock by one message's share of a second at 20 a second. */
function sendPaced(client: Client, message: object): void {
  t.clock.advance(50);
  client.socket.send(JSON.stringify(message));
}

/** Waits until the server holds exactly `count` sockets: it frees a place when its end of the connection closes, a moment after the client's. */
async function serverHolds(count: number): Promise<void> {
  await vi.waitFor(() => expect(t.app.websocketServer.clients.size).toBe(count), {
    timeout: 2_000,
    interval: 10,
  });
}

/** Every ticker and kline channel, in a fixed order. */
const CHANNELS = INSTRUMENT_SYMBOLS.flatMap((symbol) => [
  `ticker.${symbol}`,
  ...KLINE_INTERVALS.map((interval) => `kline.${symbol}.${interval}`),
]);

async function closeAll(clients: Client[]): Promise<void> {
  for (const client of clients) client.socket.close();
  await Promise.all(clients.map((client) => client.closed));
  await serverHolds(0);
}

describe('/ws message budget', () => {
  it('a 21st message within one second closes the socket with 1008, and nothing past the budget is parsed or answered', async () => {
    const client = await open(newAddress());
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (let i = 0; i < 20; i++)
        client.socket.send(JSON.stringify({ op: 'ping', id: `in-${i}` }));
      for (let i = 0; i < 5; i++)
        client.socket.send(JSON.stringify({ op: 'ping', id: `over-${i}` }));
      client.socket.send('{not json');
      expect(await client.closed).toEqual({ code: 1008, reason: 'too many messages' });
      expect(
        parse.mock.calls.filter(
          ([text]) => typeof text === 'string' && (text.includes('over-') || text === '{not json'),
        ),
      ).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    expect(client.received).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ op: 'pong', id: `in-${i}` })),
    );
  });

  it('a client sending 20 messages a second stays open and keeps getting ticks', async () => {
    const client = await open(newAddress());
    client.socket.send(JSON.stringify({ op: 'subscribe', channel: 'ticker.BTCUSDT', id: 'sub' }));
    expect(await client.next()).toEqual({
      op: 'subscribe',
      id: 'sub',
      channel: 'ticker.BTCUSDT',
      ok: true,
    });
    for (let second = 0; second < 3; second++) {
      // The whole second's budget in one burst: 19 pings after the subscribe, then 20 a second.
      const pings = second === 0 ? 19 : 20;
      for (let i = 0; i < pings; i++) client.socket.send(JSON.stringify({ op: 'ping', id: i }));
      for (let i = 0; i < pings; i++) expect(await client.next()).toEqual({ op: 'pong', id: i });
      expect(
        t.app.services.hub.publishLocal('ticker.BTCUSDT', { price: String(second) }),
      ).toBeGreaterThanOrEqual(1);
      expect(await client.next()).toEqual({
        channel: 'ticker.BTCUSDT',
        data: { price: String(second) },
      });
      t.clock.advance(1_000);
    }
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    await closeAll([client]);
  });

  it('a batched subscribe or unsubscribe is one message of the budget, however many channels it names', async () => {
    const client = await open(newAddress());
    const all = CHANNELS.slice(0, 50);
    const first = all.slice(0, 25);
    const second = all.slice(25);
    // 20 messages in one burst moving 50 channels each way ten times: 1,000 channel changes.
    for (let i = 0; i < 10; i++) {
      client.socket.send(
        JSON.stringify({ op: 'subscribe', channels: i % 2 ? second : first, id: `sub-${i}` }),
      );
      client.socket.send(
        JSON.stringify({ op: 'unsubscribe', channels: i % 2 ? second : first, id: `unsub-${i}` }),
      );
    }
    for (let i = 0; i < 10; i++) {
      expect(await client.next()).toEqual({
        op: 'subscribe',
        id: `sub-${i}`,
        channels: i % 2 ? second : first,
        ok: true,
      });
      expect(await client.next()).toEqual({
        op: 'unsubscribe',
        id: `unsub-${i}`,
        channels: i % 2 ? second : first,
        ok: true,
      });
    }
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    // The budget is spent all the same: the 21st message closes the socket.
    client.socket.send(JSON.stringify({ op: 'subscribe', channels: all, id: 'over' }));
    expect(await client.closed).toEqual({ code: 1008, reason: 'too many messages' });
    expect(all.some((channel) => t.app.services.hub.hasSubscribers(channel))).toBe(false);
    await serverHolds(0);
  });
});

describe('/ws subscriptions per socket', () => {
  it('the 51st channel is refused with too_many_subscriptions; the 50 held stay and a freed place can be used', async () => {
    const channels = INSTRUMENT_SYMBOLS.flatMap((symbol) => [
      `ticker.${symbol}`,
      ...KLINE_INTERVALS.map((interval) => `kline.${symbol}.${interval}`),
    ]).slice(0, 51);
    expect(channels).toHaveLength(51);
    const client = await open(newAddress());
    for (const channel of channels.slice(0, 50)) {
      sendPaced(client, { op: 'subscribe', channel, id: channel });
      expect(await client.next()).toEqual({ op: 'subscribe', id: channel, channel, ok: true });
    }
    const last = channels[50] as string;
    sendPaced(client, { op: 'subscribe', channel: last, id: 'one-too-many' });
    expect(await client.next()).toEqual({
      op: 'error',
      id: 'one-too-many',
      error: 'too_many_subscriptions',
    });
    expect(t.app.services.hub.hasSubscribers(last)).toBe(false);
    // Asking again for a channel it holds takes no new place.
    sendPaced(client, { op: 'subscribe', channel: channels[0], id: 'again' });
    expect(await client.next()).toEqual({
      op: 'subscribe',
      id: 'again',
      channel: channels[0],
      ok: true,
    });
    sendPaced(client, { op: 'unsubscribe', channel: channels[0], id: 'free' });
    expect(await client.next()).toMatchObject({ op: 'unsubscribe', ok: true });
    sendPaced(client, { op: 'subscribe', channel: last, id: 'fits' });
    expect(await client.next()).toEqual({ op: 'subscribe', id: 'fits', channel: last, ok: true });
    expect(t.app.services.hub.hasSubscribers(last)).toBe(true);
    await closeAll([client]);
  });

  it('a batch that would go past 50 channels is refused whole: none of it is joined', async () => {
    const client = await open(newAddress());
    sendPaced(client, { op: 'subscribe', channels: CHANNELS.slice(0, 40), id: 'forty' });
    expect(await client.next()).toMatchObject({ op: 'subscribe', id: 'forty', ok: true });
    // 5 held again and 11 new would make 51.
    const overflowing = CHANNELS.slice(35, 51);
    sendPaced(client, { op: 'subscribe', channels: overflowing, id: 'sixteen' });
    expect(await client.next()).toEqual({
      op: 'error',
      id: 'sixteen',
      error: 'too_many_subscriptions',
    });
    expect(
      CHANNELS.slice(40, 51).some((channel) => t.app.services.hub.hasSubscribers(channel)),
    ).toBe(false);
    // More names than a socket may hold are not a batch at all.
    sendPaced(client, { op: 'unsubscribe', channels: CHANNELS.slice(0, 51), id: 'too-long' });
    expect(await client.next()).toEqual({ op: 'error', id: 'too-long', error: 'bad_message' });
    expect(
      CHANNELS.slice(0, 40).every((channel) => t.app.services.hub.hasSubscribers(channel)),
    ).toBe(true);
    // One place freed, the same batch fits: 50 held.
    sendPaced(client, { op: 'unsubscribe', channels: [CHANNELS[0]], id: 'one-out' });
    expect(await client.next()).toMatchObject({ op: 'unsubscribe', id: 'one-out', ok: true });
    sendPaced(client, { op: 'subscribe', channels: overflowing, id: 'sixteen-again' });
    expect(await client.next()).toEqual({
      op: 'subscribe',
      id: 'sixteen-again',
      channels: overflowing,
      ok: true,
    });
    expect(
      CHANNELS.slice(0, 52).map((channel) => t.app.services.hub.hasSubscribers(channel)),
    ).toEqual([false, ...Array(50).fill(true), false]);
    await closeAll([client]);
  });
});

describe('/ws sockets per address', () => {
  async function openMany(from: string, count: number): Promise<Client[]> {
    const clients: Client[] = [];
    for (let i = 0; i < count; i++) clients.push(await open(from));
    return clients;
  }

  it('the 51st socket from one address is refused with 429 while another address still connects', async () => {
    const crowded = newAddress();
    const fifty = await openMany(crowded, 50);
    await expect(open(crowded)).rejects.toMatchObject({ status: 429, retryAfter: '10' });
    const other = await open(newAddress());
    other.socket.send(JSON.stringify({ op: 'ping', id: 1 }));
    expect(await other.next()).toEqual({ op: 'pong', id: 1 });
    // Refusals take no place: the address is still refused, not counted past its cap.
    await expect(open(crowded)).rejects.toMatchObject({ status: 429 });
    await closeAll([...fifty, other]);
  });

  it('closed sockets free their places, including one the server closed for flooding', async () => {
    const from = newAddress();
    const fifty = await openMany(from, 50);
    await expect(open(from)).rejects.toMatchObject({ status: 429 });

    const flooder = fifty.pop() as Client;
    for (let i = 0; i < 21; i++) flooder.socket.send(JSON.stringify({ op: 'ping' }));
    expect((await flooder.closed).code).toBe(1008);
    await serverHolds(49);
    fifty.push(await open(from));
    await expect(open(from)).rejects.toMatchObject({ status: 429 });

    await closeAll(fifty);
    const again = await openMany(from, 50);
    await expect(open(from)).rejects.toMatchObject({ status: 429 });
    await closeAll(again);
  });
});

describe('/ws new sockets per address a minute', () => {
  /** Moves the app's clock to the start of its next minute, where a new window of new sockets begins. */
  function toNextMinute(): void {
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000));
  }

  it('the 121st socket opened within a minute from one address is refused with 429 until the minute is over; another address still connects', async () => {
    toNextMinute();
    const churner = newAddress();
    // Opened and closed in turn, so the 50 open sockets cap is never reached.
    for (let i = 0; i < 120; i++) {
      const client = await open(churner);
      client.socket.close();
      await client.closed;
    }
    await serverHolds(0);
    t.clock.advance(15_000);
    await expect(open(churner)).rejects.toMatchObject({ status: 429, retryAfter: '45' });
    const other = await open(newAddress());
    // Refusals are not counted: an address that keeps retrying is let in when its minute ends, not later.
    for (let i = 0; i < 5; i++) await expect(open(churner)).rejects.toMatchObject({ status: 429 });
    t.clock.advance(44_999);
    await expect(open(churner)).rejects.toMatchObject({ status: 429, retryAfter: '1' });
    t.clock.advance(1);
    const again = await open(churner);
    again.socket.send(JSON.stringify({ op: 'ping', id: 1 }));
    expect(await again.next()).toEqual({ op: 'pong', id: 1 });
    await closeAll([other, again]);
  });

  it('a socket refused for the open-socket cap takes none of the minute’s budget', async () => {
    toNextMinute();
    const from = newAddress();
    const fifty: Client[] = [];
    for (let i = 0; i < 50; i++) fifty.push(await open(from));
    for (let i = 0; i < 80; i++)
      await expect(open(from)).rejects.toMatchObject({ status: 429, retryAfter: '10' });
    await closeAll(fifty);
    // 50 of 120 used: 70 more fit this minute, the 71st does not.
    const more: Client[] = [];
    for (let i = 0; i < 70; i++) {
      more.push(await open(from));
      if (more.length === 50) await closeAll(more.splice(0));
    }
    await expect(open(from)).rejects.toMatchObject({ status: 429, retryAfter: '60' });
    await closeAll(more);
  });

  it('holds counts for one minute only: the next minute starts with no address counted', () => {
    const budget = new NewSocketBudget(2);
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 1000; i++)
      expect(budget.take(`10.0.${i >> 8}.${i & 255}`, t0)).toEqual({ ok: true });
    expect(budget.take('10.0.0.0', t0 + 1)).toEqual({ ok: true });
    expect(budget.take('10.0.0.0', t0 + 2)).toEqual({ ok: false, retryAfterS: 60 });
    expect(budget.size).toBe(1000);
    expect(budget.take('10.0.0.0', t0 + 60_000)).toEqual({ ok: true });
    expect(budget.size).toBe(1);
  });
});
