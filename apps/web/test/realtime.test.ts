import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BACKOFF_MAX_MS,
  BACKOFF_RESET_AFTER_MS,
  MAX_CHANNELS_PER_MESSAGE,
  PING_INTERVAL_MS,
  PONG_TIMEOUT_MS,
  RealtimeClient,
  type SocketLike,
  backoffDelayMs,
} from '@/lib/realtime.ts';

/** A WebSocket stand-in: records what the client sends; the test opens, closes and speaks for the server. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  // The server's side:
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onerror?.({} as Event);
    this.onclose?.({ code } as CloseEvent);
  }
  push(channel: string, data: unknown) {
    this.receive(JSON.stringify({ channel, data }));
  }
  receive(text: string) {
    this.onmessage?.({ data: text } as MessageEvent);
  }
  ops(op: string) {
    return this.sent.filter((m) => m.op === op);
  }
}

const latest = () => {
  const socket = FakeSocket.all[FakeSocket.all.length - 1];
  if (!socket) throw new Error('no socket yet');
  return socket;
};

/** What the client sends to change channels: one message naming them all, with an id for its reply. */
const batch = (op: 'subscribe' | 'unsubscribe', channels: string[]) => ({
  op,
  channels,
  id: expect.any(Number),
});
/** Ends the current turn: channel changes made in it go out. */
const endTurn = () => vi.advanceTimersByTime(0);
/** Answers every batch the socket sent since `from` as the server does when all is well. */
function acknowledge(socket: FakeSocket, from = 0) {
  for (const m of socket.sent.slice(from))
    if (m.channels)
      socket.receive(JSON.stringify({ op: m.op, id: m.id, channels: m.channels, ok: true }));
}

let token: string | null;
function makeClient(random = () => 0.5) {
  return new RealtimeClient({
    url: () => 'ws://test/ws',
    createSocket: (url) => new FakeSocket(url),
    getToken: () => token,
    random,
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  token = null;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoff', () => {
  it('doubles per attempt, never waits more than the cap, and jitters within the upper half', () => {
    expect(backoffDelayMs(0, () => 0)).toBe(250);
    expect(backoffDelayMs(0, () => 1)).toBe(500);
    expect(backoffDelayMs(3, () => 0)).toBe(2000);
    expect(backoffDelayMs(3, () => 1)).toBe(4000);
    for (const attempt of [6, 10, 50, 1000]) {
      expect(backoffDelayMs(attempt, () => 1)).toBe(BACKOFF_MAX_MS);
      expect(backoffDelayMs(attempt, () => 0)).toBe(BACKOFF_MAX_MS / 2);
    }
  });
});

describe('RealtimeClient', () => {
  it('connects on the first subscription and counts subscribers per channel', () => {
    const client = makeClient();
    expect(FakeSocket.all).toHaveLength(0);
    const stopA = client.subscribe('ticker.BTCUSDT');
    const stopB = client.subscribe('ticker.BTCUSDT');
    expect(FakeSocket.all).toHaveLength(1);
    expect(latest().url).toBe('ws://test/ws');
    latest().open();
    // One subscribe for two screens.
    expect(latest().ops('subscribe')).toEqual([batch('subscribe', ['ticker.BTCUSDT'])]);
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(2);

    stopA();
    stopA(); // a second call changes nothing
    endTurn();
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(1);
    expect(latest().ops('unsubscribe')).toEqual([]);
    stopB();
    // Sent once the turn is over, with whatever else changed in it.
    expect(latest().ops('unsubscribe')).toEqual([]);
    endTurn();
    expect(latest().ops('unsubscribe')).toEqual([batch('unsubscribe', ['ticker.BTCUSDT'])]);
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(0);

    // Subscribing again while open sends at the end of the turn.
    client.subscribe('ticker.BTCUSDT');
    endTurn();
    expect(latest().ops('subscribe')).toHaveLength(2);
  });

  it('a tab switch (8 channels out, 9 in) sends exactly 2 messages: the unsubscribe, then the subscribe', () => {
    token = 't';
    const client = makeClient();
    const before = ['BTC', 'ETH', 'SOL', 'XRP', 'BNB', 'DOGE', 'ADA', 'TRX'].map(
      (coin) => `ticker.${coin}USDT`,
    );
    const after = ['LTC', 'DOT', 'LINK', 'AVAX', 'BCH', 'ETC', 'XLM', 'ATOM', 'FIL'].map(
      (coin) => `ticker.${coin}USDT`,
    );
    const stops = before.map((channel) => client.subscribe(channel));
    client.subscribe('messages.broadcast');
    latest().open();
    expect(latest().sent).toEqual([
      { op: 'auth', token: 't' },
      batch('subscribe', [...before, 'messages.broadcast']),
    ]);
    acknowledge(latest());

    const sentBefore = latest().sent.length;
    // As React runs a switch: the old tab's effects are cleaned up, then the new tab's run.
    for (const stop of stops) stop();
    for (const channel of after) client.subscribe(channel);
    endTurn();
    expect(latest().sent.slice(sentBefore)).toEqual([
      batch('unsubscribe', before),
      batch('subscribe', after),
    ]);
  });

  it('a channel taken and dropped within one turn sends nothing, nor one dropped and taken again', () => {
    const client = makeClient();
    const stopBtc = client.subscribe('ticker.BTCUSDT');
    latest().open();
    const sentBefore = latest().sent.length;
    client.subscribe('ticker.ETHUSDT')();
    stopBtc();
    client.subscribe('ticker.BTCUSDT');
    endTurn();
    expect(latest().sent.slice(sentBefore)).toEqual([]);
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(1);
    // Nothing is left waiting to go out later either.
    vi.advanceTimersByTime(PING_INTERVAL_MS - 1);
    expect(latest().sent.slice(sentBefore)).toEqual([]);
  });

  it('more channels than the server takes in one message go out in messages of 50', () => {
    const client = makeClient();
    const channels = Array.from(
      { length: MAX_CHANNELS_PER_MESSAGE + 3 },
      (_, i) => `kline.C${i}USDT.1m`,
    );
    for (const channel of channels) client.subscribe(channel);
    latest().open();
    expect(latest().sent).toEqual([
      batch('subscribe', channels.slice(0, 50)),
      batch('subscribe', channels.slice(50)),
    ]);
  });

  it('delivers messages to the channel’s handlers and to every sink, not to other channels', () => {
    const client = makeClient();
    const btc = vi.fn();
    const eth = vi.fn();
    const sink = vi.fn();
    client.onMessage(sink);
    client.subscribe('ticker.BTCUSDT', btc);
    client.subscribe('ticker.ETHUSDT', eth);
    latest().open();
    latest().push('ticker.BTCUSDT', { price: '1' });
    expect(btc).toHaveBeenCalledWith({ price: '1' }, 'ticker.BTCUSDT');
    expect(eth).not.toHaveBeenCalled();
    expect(sink).toHaveBeenCalledWith({ price: '1' }, 'ticker.BTCUSDT');
    // Replies to ops and garbage are not messages.
    latest().receive(JSON.stringify({ op: 'pong' }));
    latest().receive('not json');
    expect(sink).toHaveBeenCalledTimes(1);
  });

  it('authenticates on open with the stored token and hands user-channel events to user handlers', () => {
    token = 'secret-1';
    const client = makeClient();
    const events = vi.fn();
    client.onUserEvent(events);
    latest().open();
    expect(latest().sent[0]).toEqual({ op: 'auth', token: 'secret-1' });
    latest().push('user.42', { type: 'balance.changed' });
    expect(events).toHaveBeenCalledWith({ type: 'balance.changed' }, 'user.42');
  });

  it('does not authenticate without a token; a later sign-in authenticates the open socket', () => {
    const client = makeClient();
    client.subscribe('ticker.BTCUSDT');
    latest().open();
    expect(latest().ops('auth')).toEqual([]);
    client.syncAuth();
    expect(latest().ops('auth')).toEqual([]);
    token = 'new-token';
    client.syncAuth();
    client.syncAuth(); // same token: nothing more
    expect(latest().ops('auth')).toEqual([{ op: 'auth', token: 'new-token' }]);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('a sign-out reconnects (only a new socket leaves the user channel) and resubscribes without a token', () => {
    token = 'secret-1';
    const client = makeClient();
    client.subscribe('kline.BTCUSDT.1m');
    const first = latest();
    first.open();
    token = null;
    client.syncAuth();
    expect(first.closed).toBe(true);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(latest().sent).toEqual([batch('subscribe', ['kline.BTCUSDT.1m'])]);
    // The old socket's late messages are ignored.
    const sink = vi.fn();
    client.onMessage(sink);
    first.push('user.1', { type: 'balance.changed' });
    expect(sink).not.toHaveBeenCalled();
  });

  it('reconnects with growing delays after drops, then resubscribes every channel and authenticates again', () => {
    token = 't';
    let attempt = 0;
    const client = makeClient(() => 1); // the longest delay of each attempt
    client.subscribe('ticker.BTCUSDT');
    client.subscribe('ticker.ETHUSDT');
    latest().open();
    expect(client.getState()).toBe('open');

    latest().drop();
    expect(client.getState()).toBe('closed');
    // The first retry waits 500 ms, then 1 s, 2 s, 4 s… as long as connecting keeps failing.
    for (const delay of [500, 1000, 2000, 4000, 8000]) {
      const sockets = FakeSocket.all.length;
      vi.advanceTimersByTime(delay - 1);
      expect(FakeSocket.all.length, `attempt ${attempt} not before ${delay} ms`).toBe(sockets);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all.length, `attempt ${attempt} at ${delay} ms`).toBe(sockets + 1);
      expect(client.getState()).toBe('connecting');
      latest().drop();
      attempt += 1;
    }
    // …up to the cap.
    for (let i = 0; i < 10; i++) {
      const sockets = FakeSocket.all.length;
      vi.advanceTimersByTime(BACKOFF_MAX_MS);
      expect(FakeSocket.all.length).toBe(sockets + 1);
      latest().drop();
    }

    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    latest().open();
    expect(latest().sent).toEqual([
      { op: 'auth', token: 't' },
      batch('subscribe', ['ticker.BTCUSDT', 'ticker.ETHUSDT']),
    ]);
    // A connection that has stayed open a while starts the backoff over.
    vi.advanceTimersByTime(BACKOFF_RESET_AFTER_MS);
    latest().drop();
    const sockets = FakeSocket.all.length;
    vi.advanceTimersByTime(500);
    expect(FakeSocket.all.length).toBe(sockets + 1);
  });

  it('a reconnect with 17 channels sends auth and one subscribe', () => {
    token = 't';
    const client = makeClient();
    const channels = Array.from({ length: 17 }, (_, i) => `ticker.C${i}USDT`);
    for (const channel of channels) client.subscribe(channel);
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    latest().open();
    expect(latest().sent).toEqual([{ op: 'auth', token: 't' }, batch('subscribe', channels)]);
  });

  /** Opens each socket, lets the server close it after `openMs` with `code`, and returns the waits between one close and the next connect. */
  function reconnectDelays(
    random: () => number,
    code: number,
    count: number,
    openMs = 0,
  ): number[] {
    const client = makeClient(random);
    client.subscribe('ticker.BTCUSDT');
    const delays: number[] = [];
    for (let i = 0; i < count; i++) {
      latest().open();
      vi.advanceTimersByTime(openMs);
      latest().drop(code);
      const sockets = FakeSocket.all.length;
      const closedAt = Date.now();
      // Nothing else is pending while the socket is down: the next timer is the reconnect.
      vi.advanceTimersToNextTimer();
      expect(FakeSocket.all).toHaveLength(sockets + 1);
      delays.push(Date.now() - closedAt);
    }
    return delays;
  }

  it('a socket dropped right after each open is retried after growing delays, not every 0.5 s', () => {
    expect(reconnectDelays(() => 1, 1006, 8)).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(reconnectDelays(() => 0, 1006, 8)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 15000, 15000,
    ]);
    // Open for less than the reset time is still no success.
    expect(reconnectDelays(() => 1, 1006, 4, BACKOFF_RESET_AFTER_MS - 1)).toEqual([
      500, 1000, 2000, 4000,
    ]);
    // Open long enough, each time: every drop is a first one.
    expect(reconnectDelays(() => 1, 1006, 3, BACKOFF_RESET_AFTER_MS)).toEqual([500, 500, 500]);
  });

  it('a close for policy (1008, over the message budget) waits 2–4 s before the first retry, then longer each time', () => {
    expect(reconnectDelays(() => 1, 1008, 5)).toEqual([4000, 8000, 16000, 30000, 30000]);
    expect(reconnectDelays(() => 0, 1008, 5)).toEqual([2000, 4000, 8000, 15000, 15000]);
    // Even after a long, healthy connection.
    expect(reconnectDelays(() => 0, 1008, 2, BACKOFF_RESET_AFTER_MS)).toEqual([2000, 2000]);
  });

  it('a batch refused for an unknown channel is asked for again without it; that channel waits for the next socket', () => {
    const client = makeClient();
    client.subscribe('ticker.BTCUSDT');
    client.subscribe('ticker.NOPE');
    latest().open();
    const [first] = latest().sent;
    expect(first).toEqual(batch('subscribe', ['ticker.BTCUSDT', 'ticker.NOPE']));
    latest().receive(
      JSON.stringify({
        op: 'error',
        id: first?.id,
        error: 'unknown_channel',
        channels: ['ticker.NOPE'],
      }),
    );
    endTurn();
    expect(latest().sent.slice(1)).toEqual([batch('subscribe', ['ticker.BTCUSDT'])]);
    acknowledge(latest(), 1);
    // Later changes leave it out too.
    client.subscribe('ticker.ETHUSDT');
    endTurn();
    expect(latest().sent.slice(2)).toEqual([batch('subscribe', ['ticker.ETHUSDT'])]);
    latest().drop();
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    latest().open();
    expect(latest().sent).toEqual([
      batch('subscribe', ['ticker.BTCUSDT', 'ticker.NOPE', 'ticker.ETHUSDT']),
    ]);
  });

  it('a batch refused as too many channels is not repeated on that socket; a refused unsubscribe is retried without the unknown channel', () => {
    const client = makeClient();
    const stopBtc = client.subscribe('ticker.BTCUSDT');
    const stopEth = client.subscribe('ticker.ETHUSDT');
    latest().open();
    const socket = latest();
    const [first] = socket.sent;
    // Sent before the reply came: the unsubscribe names the channel the server will refuse.
    stopBtc();
    stopEth();
    endTurn();
    expect(socket.sent.slice(1)).toEqual([
      batch('unsubscribe', ['ticker.BTCUSDT', 'ticker.ETHUSDT']),
    ]);
    const second = socket.sent[1];
    socket.receive(
      JSON.stringify({
        op: 'error',
        id: first?.id,
        error: 'unknown_channel',
        channels: ['ticker.ETHUSDT'],
      }),
    );
    socket.receive(
      JSON.stringify({
        op: 'error',
        id: second?.id,
        error: 'unknown_channel',
        channels: ['ticker.ETHUSDT'],
      }),
    );
    endTurn();
    // The server held neither; asking it to leave the known one again is harmless and ends it.
    expect(socket.sent.slice(2)).toEqual([batch('unsubscribe', ['ticker.BTCUSDT'])]);
    acknowledge(socket, 2);

    client.subscribe('ticker.SOLUSDT');
    endTurn();
    const third = socket.sent[3];
    expect(third).toEqual(batch('subscribe', ['ticker.SOLUSDT']));
    socket.receive(JSON.stringify({ op: 'error', id: third?.id, error: 'too_many_subscriptions' }));
    endTurn();
    expect(socket.sent).toHaveLength(4);
  });

  it('a channel dropped while disconnected is not resubscribed; one added while disconnected is', () => {
    const client = makeClient();
    const stop = client.subscribe('ticker.BTCUSDT');
    latest().open();
    latest().drop();
    stop();
    client.subscribe('ticker.SOLUSDT');
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    latest().open();
    expect(latest().sent).toEqual([batch('subscribe', ['ticker.SOLUSDT'])]);
  });

  it('pings while connected and treats silence after a ping as a dead connection', () => {
    const client = makeClient();
    client.subscribe('ticker.BTCUSDT');
    const first = latest();
    first.open();
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(first.ops('ping')).toHaveLength(1);
    // A pong (any message) keeps it alive.
    first.receive(JSON.stringify({ op: 'pong' }));
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(first.ops('ping')).toHaveLength(2);
    expect(client.getState()).toBe('open');
    // No answer within the timeout: closed and reconnecting, without waiting for a close event.
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(first.closed).toBe(true);
    expect(client.getState()).toBe('closed');
    vi.advanceTimersByTime(500);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('reports its state to listeners and reconnects at once when asked (back online)', () => {
    const client = makeClient();
    const states: string[] = [];
    client.onStateChange(() => states.push(client.getState()));
    client.subscribe('ticker.BTCUSDT');
    latest().open();
    latest().drop();
    client.reconnectNow();
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(states).toEqual(['connecting', 'open', 'closed', 'connecting', 'open']);
  });

  it('close() stops for good: no reconnect after it', () => {
    const client = makeClient();
    client.subscribe('ticker.BTCUSDT');
    latest().open();
    client.close();
    vi.advanceTimersByTime(BACKOFF_MAX_MS * 2);
    expect(FakeSocket.all).toHaveLength(1);
    expect(client.getState()).toBe('closed');
  });

  it('a socket that cannot even be created is retried with backoff', () => {
    let fail = true;
    const client = new RealtimeClient({
      url: () => 'ws://test/ws',
      createSocket: (url) => {
        if (fail) throw new Error('SecurityError');
        return new FakeSocket(url);
      },
      getToken: () => null,
      random: () => 1,
    });
    client.subscribe('ticker.BTCUSDT');
    expect(client.getState()).toBe('closed');
    fail = false;
    vi.advanceTimersByTime(500);
    expect(FakeSocket.all).toHaveLength(1);
  });
});
