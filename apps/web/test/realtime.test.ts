import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_MAX_MS, PING_INTERVAL_MS, PONG_TIMEOUT_MS, RealtimeClient, type SocketLike, backoffDelayMs } from '@/lib/realtime.ts';

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
  drop() {
    this.readyState = 3;
    this.onerror?.({} as Event);
    this.onclose?.({} as CloseEvent);
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

let token: string | null;
function makeClient(random = () => 0.5) {
  return new RealtimeClient({ url: () => 'ws://test/ws', createSocket: (url) => new FakeSocket(url), getToken: () => token, random });
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
    expect(latest().ops('subscribe')).toEqual([{ op: 'subscribe', channel: 'ticker.BTCUSDT' }]);
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(2);

    stopA();
    stopA(); // a second call changes nothing
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(1);
    expect(latest().ops('unsubscribe')).toEqual([]);
    stopB();
    expect(latest().ops('unsubscribe')).toEqual([{ op: 'unsubscribe', channel: 'ticker.BTCUSDT' }]);
    expect(client.subscriberCount('ticker.BTCUSDT')).toBe(0);

    // Subscribing again while open sends at once.
    client.subscribe('ticker.BTCUSDT');
    expect(latest().ops('subscribe')).toHaveLength(2);
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
    expect(latest().sent).toEqual([{ op: 'subscribe', channel: 'kline.BTCUSDT.1m' }]);
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
      { op: 'subscribe', channel: 'ticker.BTCUSDT' },
      { op: 'subscribe', channel: 'ticker.ETHUSDT' },
    ]);
    // A successful connection starts the backoff over.
    latest().drop();
    const sockets = FakeSocket.all.length;
    vi.advanceTimersByTime(500);
    expect(FakeSocket.all.length).toBe(sockets + 1);
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
    expect(latest().sent).toEqual([{ op: 'subscribe', channel: 'ticker.SOLUSDT' }]);
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
