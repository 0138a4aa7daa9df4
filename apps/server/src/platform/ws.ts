import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from './errors.ts';
import type { AuthContext } from './http.ts';
import type { Metrics } from './metrics.ts';
import { LocalRelay, type Relay } from './relay.ts';

const MAX_MESSAGE_BYTES = 4096;
const CHANNEL_PATTERN = /^[a-z]+(\.[A-Za-z0-9_]+){1,3}$/;

/** The close code (policy violation) and reason a socket gets when it sends past its budget. */
export const CLOSE_TOO_MANY_MESSAGES = { code: 1008, reason: 'too many messages' } as const;
/**
 * How long a socket closed for flooding keeps its connection so the client can read the close
 * frame (and see 1008) before it is cut; nothing it sends meanwhile is read.
 */
const CLOSE_GRACE_MS = 1_000;
/**
 * The close code (going away) and reason every socket gets when this process shuts down: the
 * client reconnects, through the load balancer, to another node and subscribes again.
 */
export const CLOSE_GOING_AWAY = { code: 1001, reason: 'server restarting' } as const;
/** How long a socket told it is going away has to answer the close before it is cut. */
const GOING_AWAY_GRACE_MS = 2_000;
/** Sent with the 429 that refuses a socket over the per-address cap. */
const REFUSED_RETRY_AFTER_S = 10;
/** The window WS_MAX_NEW_PER_MINUTE counts new sockets in. */
const NEW_SOCKETS_WINDOW_MS = 60_000;
/**
 * Addresses counted in one window of new sockets. Past it the window's newcomers go uncounted:
 * an attacker with this many addresses is not stopped per address anyway, and refusing them
 * instead would let one lock every new visitor out.
 */
const MAX_COUNTED_ADDRESSES = 100_000;

/** What one socket may do (WS_MAX_MESSAGES_PER_SECOND, WS_MAX_SUBSCRIPTIONS). */
export interface SocketLimits {
  /** Inbound messages a second, and the most it may send in one burst. */
  messagesPerSecond: number;
  /** Channels it may hold at once, its own user channel included. */
  subscriptions: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = { messagesPerSecond: 20, subscriptions: 50 };

interface Client {
  socket: WebSocket;
  channels: Set<string>;
  auth: AuthContext | null;
  /** The message budget (a token bucket): messages it may still send now, and when that was worked out. */
  tokens: number;
  tokensAtMs: number;
  /** Closed for flooding: whatever else arrives before the close completes is dropped unread. */
  refused: boolean;
}

/**
 * Channels clients may subscribe to by name; `user.<uid>` is joined by authenticating,
 * never by subscribing. Later modules add their public channels (ticker.*, kline.*).
 */
export type ChannelGuard = (channel: string) => boolean;

export const HUB_TOPIC = 'hub';
/** Told when a channel gets its first socket in this process (`open`) and when its last one leaves. */
export type ChannelWatcher = (channel: string, open: boolean) => void;

/** How often each process re-checks the sessions its sockets signed in with. */
export const SESSION_RECHECK_MS = 10_000;

/** Of the given session ids, the ones still signed in (not revoked, not expired). */
export type LiveSessions = (sessionIds: number[]) => Promise<Set<number>>;

/**
 * Real-time fan-out: a broadcast is serialised once and the same buffer goes to every
 * subscriber of the channel (as a text frame), in this process at once and, through the relay, in every
 * other process of the same PostgreSQL database (ARCHITECTURE §2, §7).
 */
export class Hub {
  private readonly subscribers = new Map<string, Set<Client>>();
  private readonly guards: ChannelGuard[] = [];
  private readonly watchers: ChannelWatcher[] = [];
  /** Every socket this process serves. */
  private readonly clients = new Set<Client>();

  constructor(
    private readonly relay: Relay = new LocalRelay(),
    private readonly metrics?: Pick<Metrics, 'wsMessagesSent'>,
  ) {
    relay.on(HUB_TOPIC, (payload) => {
      const split = payload.indexOf('\n');
      if (split > 0) this.deliver(payload.slice(0, split), payload.slice(split + 1));
    });
  }

  allow(guard: ChannelGuard): void {
    this.guards.push(guard);
  }

  /** Follows which channels this process's sockets hold (what a relay by subject must subscribe to). */
  watchChannels(watcher: ChannelWatcher): void {
    this.watchers.push(watcher);
  }

  /**
   * Sends `data` to the channel's subscribers in every process; returns how many of this
   * process's sockets got it. With one process and no subscriber nothing is serialised.
   */
  publish(channel: string, data: unknown): number {
    const local = this.subscribers.get(channel)?.size ?? 0;
    if (local === 0 && !this.relay.reachesOthers) return 0;
    this.relay.send(HUB_TOPIC, `${channel}\n${JSON.stringify({ channel, data })}`, channel);
    return local;
  }

  publishToUser(userId: number, data: unknown): number {
    return this.publish(`user.${userId}`, data);
  }

  /**
   * Sends to this process's subscribers only: for messages every process computes for
   * itself (tickers and candles, from the recorder's relayed tick events).
   */
  publishLocal(channel: string, data: unknown): number {
    if (!this.hasSubscribers(channel)) return 0;
    return this.deliver(channel, JSON.stringify({ channel, data }));
  }

  /** Whether any socket of this process listens on the channel: nothing is computed for nobody. */
  hasSubscribers(channel: string): boolean {
    return (this.subscribers.get(channel)?.size ?? 0) > 0;
  }

  private deliver(channel: string, message: string): number {
    const clients = this.subscribers.get(channel);
    if (!clients) return 0;
    // One buffer for everyone: a string would be measured and encoded again for each socket.
    const buffer = Buffer.from(message);
    for (const client of clients) client.socket.send(buffer, { binary: false });
    this.metrics?.wsMessagesSent.inc(clients.size);
    return clients.size;
  }

  /** Sockets open on this process. */
  get connections(): number {
    return this.clients.size;
  }

  /** Channels held by this process's sockets, counted per socket (a user's own channel included). */
  get subscriptionCount(): number {
    let count = 0;
    for (const clients of this.subscribers.values()) count += clients.size;
    return count;
  }

  /**
   * Signs out the sockets whose session has ended since they authenticated (signed out,
   * revoked from another device, a password change or reset, an account freeze, expiry):
   * they leave their user channel and are told `{ op: 'auth', ok: false, reason: 'session_ended' }`;
   * public channels stay. Returns how many sockets were signed out.
   */
  async dropEndedSessions(isLive: LiveSessions): Promise<number> {
    const signedIn = new Map<Client, number>();
    for (const [channel, clients] of this.subscribers) {
      if (!channel.startsWith('user.')) continue;
      for (const client of clients) if (client.auth) signedIn.set(client, client.auth.sessionId);
    }
    if (signedIn.size === 0) return 0;
    const live = await isLive([...new Set(signedIn.values())]);
    let dropped = 0;
    for (const [client, sessionId] of signedIn) {
      // A socket that signed in again while the check ran (another session) is left to the next check.
      if (client.auth?.sessionId !== sessionId || live.has(sessionId)) continue;
      this.leave(client, `user.${client.auth.userId}`);
      client.auth = null;
      client.socket.send(JSON.stringify({ op: 'auth', ok: false, reason: 'session_ended' }));
      dropped += 1;
    }
    return dropped;
  }

  /**
   * Serves one socket. `nowMs` times its message budget: the app's clock, so tests move time
   * instead of sleeping.
   */
  attach(
    socket: WebSocket,
    authenticate: (token: string) => Promise<AuthContext>,
    limits: SocketLimits = DEFAULT_SOCKET_LIMITS,
    nowMs: () => number = Date.now,
  ): void {
    const rate = limits.messagesPerSecond;
    const client: Client = {
      socket,
      channels: new Set(),
      auth: null,
      tokens: rate,
      tokensAtMs: nowMs(),
      refused: false,
    };
    this.clients.add(client);
    const reply = (message: object) => socket.send(JSON.stringify(message));
    socket.on('message', async (raw, isBinary) => {
      // A flood costs one comparison per message from here on: nothing is decoded or parsed.
      if (client.refused) return;
      if (!spend(client, rate, nowMs())) {
        client.refused = true;
        socket.close(CLOSE_TOO_MANY_MESSAGES.code, CLOSE_TOO_MANY_MESSAGES.reason);
        // A flooding client has megabytes in flight that ws would otherwise still decode frame by
        // frame until its close frame comes through: stop reading, let TCP hold the sender back,
        // and cut the connection once the client has had time to read why.
        socket.pause();
        setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
        return;
      }
      const text = raw.toString();
      if (isBinary || text.length > MAX_MESSAGE_BYTES)
        return reply({ op: 'error', error: 'bad_message' });
      let message: {
        op?: unknown;
        channel?: unknown;
        channels?: unknown;
        token?: unknown;
        id?: unknown;
      };
      try {
        message = JSON.parse(text);
      } catch {
        return reply({ op: 'error', error: 'bad_json' });
      }
      const id =
        typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
      switch (message.op) {
        case 'ping':
          return reply({ op: 'pong', id });
        case 'auth': {
          if (typeof message.token !== 'string')
            return reply({ op: 'error', id, error: 'bad_token' });
          try {
            const auth = await authenticate(`Bearer ${message.token}`);
            if (client.auth) this.leave(client, `user.${client.auth.userId}`);
            client.auth = auth;
            this.join(client, `user.${auth.userId}`);
            return reply({ op: 'auth', id, ok: true });
          } catch {
            return reply({ op: 'auth', id, ok: false });
          }
        }
        case 'subscribe':
        case 'unsubscribe': {
          // `channels` names several at once so that a screen change costs one message of the
          // budget, not one per channel. A batch is applied whole or not at all.
          const batched = message.channels !== undefined;
          const named: unknown[] | null = batched
            ? Array.isArray(message.channels)
              ? message.channels
              : null
            : [message.channel];
          // More channels than a socket may hold could never all be held (nor were they all subscribed).
          if (
            named === null ||
            named.length === 0 ||
            named.length > limits.subscriptions ||
            (batched && message.channel !== undefined)
          ) {
            return reply({ op: 'error', id, error: 'bad_message' });
          }
          const unknown = named.filter((channel) => !this.isPublic(channel));
          if (unknown.length > 0) {
            // A batch's refusal names what was wrong, so a client can ask again for the rest.
            return reply(
              batched
                ? { op: 'error', id, error: 'unknown_channel', channels: unknown }
                : { op: 'error', id, error: 'unknown_channel' },
            );
          }
          const channels = named as string[];
          if (message.op === 'subscribe') {
            const added = new Set(channels.filter((channel) => !client.channels.has(channel))).size;
            if (client.channels.size + added > limits.subscriptions)
              return reply({ op: 'error', id, error: 'too_many_subscriptions' });
            for (const channel of channels) this.join(client, channel);
          } else {
            for (const channel of channels) this.leave(client, channel);
          }
          return reply(
            batched
              ? { op: message.op, id, channels, ok: true }
              : { op: message.op, id, channel: channels[0], ok: true },
          );
        }
        default:
          return reply({ op: 'error', id, error: 'unknown_op' });
      }
    });
    socket.on('close', () => {
      this.clients.delete(client);
      for (const channel of client.channels) this.leave(client, channel);
    });
  }

  /** A channel a socket may subscribe to by name: a known public one, never a user's. */
  private isPublic(channel: unknown): channel is string {
    return (
      typeof channel === 'string' &&
      CHANNEL_PATTERN.test(channel) &&
      !channel.startsWith('user.') &&
      this.guards.some((g) => g(channel))
    );
  }

  private join(client: Client, channel: string): void {
    client.channels.add(channel);
    let clients = this.subscribers.get(channel);
    if (!clients) {
      this.subscribers.set(channel, (clients = new Set()));
      // Other processes' events for the channel are wanted from its first socket here on.
      this.relay.want(HUB_TOPIC, channel);
      for (const watcher of this.watchers) watcher(channel, true);
    }
    clients.add(client);
  }

  private leave(client: Client, channel: string): void {
    client.channels.delete(channel);
    const clients = this.subscribers.get(channel);
    clients?.delete(client);
    if (clients?.size === 0) {
      this.subscribers.delete(channel);
      this.relay.unwant(HUB_TOPIC, channel);
      for (const watcher of this.watchers) watcher(channel, false);
    }
  }
}

/**
 * A token bucket refilled at `rate` a second up to `rate`: takes one message's token, or
 * returns false when none is left.
 */
function spend(client: Client, rate: number, nowMs: number): boolean {
  // A clock set back must not drain the budget.
  const elapsedMs = Math.max(0, nowMs - client.tokensAtMs);
  client.tokens = Math.min(rate, client.tokens + (elapsedMs * rate) / 1000);
  client.tokensAtMs = nowMs;
  if (client.tokens < 1) return false;
  client.tokens -= 1;
  return true;
}

/** Open sockets per client address: an entry lives only while its address has a socket open. */
export class AddressSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly maxPerAddress: number) {}

  /** Takes a slot for `address`, or returns false when it holds the most it may. */
  take(address: string): boolean {
    const count = this.open.get(address) ?? 0;
    if (count >= this.maxPerAddress) return false;
    this.open.set(address, count + 1);
    return true;
  }

  release(address: string): void {
    const count = this.open.get(address) ?? 0;
    // A release without its take would let the address open more than its share.
    if (count <= 0) throw new Error(`ws: released a slot ${address} did not hold`);
    if (count === 1) this.open.delete(address);
    else this.open.set(address, count - 1);
  }
}

/**
 * New sockets per client address in fixed one-minute windows of the app's clock. Memory holds
 * one window: every entry goes when the next window starts.
 */
export class NewSocketBudget {
  private readonly counts = new Map<string, number>();
  private window = Number.NaN;

  constructor(readonly maxPerMinute: number) {}

  /** Counts a new socket for `address`, or returns the seconds until it may open one (its window's end). */
  take(address: string, nowMs: number): { ok: true } | { ok: false; retryAfterS: number } {
    const window = Math.floor(nowMs / NEW_SOCKETS_WINDOW_MS);
    // Any other window, a clock set back included, starts the count over.
    if (window !== this.window) {
      this.counts.clear();
      this.window = window;
    }
    const count = this.counts.get(address) ?? 0;
    if (count >= this.maxPerMinute)
      return {
        ok: false,
        retryAfterS: Math.max(1, Math.ceil(((window + 1) * NEW_SOCKETS_WINDOW_MS - nowMs) / 1000)),
      };
    if (count > 0 || this.counts.size < MAX_COUNTED_ADDRESSES) this.counts.set(address, count + 1);
    return { ok: true };
  }

  /** Addresses counted in the current window. */
  get size(): number {
    return this.counts.size;
  }
}

export function registerWebSocket(app: FastifyInstance, hub: Hub, isLive: LiveSessions): void {
  const { config, clock } = app.services;
  const limits: SocketLimits = {
    messagesPerSecond: config.ws.maxMessagesPerSecond,
    subscriptions: config.ws.maxSubscriptions,
  };
  const slots = new AddressSlots(config.ws.maxPerAddress);
  const newSockets = new NewSocketBudget(config.ws.maxNewPerMinute);
  const nowMs = () => clock.now().getTime();
  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      // The caps are checked before the upgrade: a refused browser sees a failed connect (no
      // open event) and backs off, and the upgrade a cap is there to save is never made.
      // request.ip is the client's address behind a trusted proxy.
      onRequest: async (request, reply) => {
        const tcp = request.raw.socket as typeof request.raw.socket | undefined;
        if (!request.ws || !tcp || tcp.destroyed) return;
        const address = request.ip;
        if (!slots.take(address)) {
          reply.header('retry-after', String(REFUSED_RETRY_AFTER_S));
          throw new AppError('RATE_LIMITED');
        }
        // Sockets opened and dropped at once never reach the cap above but each costs an
        // upgrade; only sockets let through are counted, so a refused retry costs no budget.
        const fresh = newSockets.take(address, nowMs());
        if (!fresh.ok) {
          slots.release(address);
          reply.header('retry-after', String(fresh.retryAfterS));
          throw new AppError('RATE_LIMITED');
        }
        // The connection's own end frees the slot, however it ends: a close, a failed upgrade, a cut.
        tcp.once('close', () => slots.release(address));
      },
    },
    (socket) => hub.attach(socket, app.authenticate, limits, nowMs),
  );
  // A session ended elsewhere (another process, another device) must stop the pushes to
  // the sockets it opened, not only its next request.
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      hub
        .dropEndedSessions(isLive)
        .catch((error: unknown) => app.log.error({ err: error }, 'ws: session re-check failed'));
    }, SESSION_RECHECK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

/**
 * @fastify/websocket's `preClose`: closes every socket with 1001 (its own closes without a
 * code, which a client reads as 1005, "no status"), waits for the clients' replies, cuts the
 * sockets that did not answer within a grace, and closes the socket server, which refuses any
 * upgrade still arriving (503). Runs before the listener closes (main.ts's shutdown, after the
 * drain): the HTTP server cannot finish closing while an upgraded connection is open.
 */
export async function closeSocketsGoingAway(this: FastifyInstance): Promise<void> {
  const server = this.websocketServer;
  const open = [...server.clients];
  const closed = Promise.all(
    open.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === socket.CLOSED) return resolve();
          socket.once('close', () => resolve());
          socket.close(CLOSE_GOING_AWAY.code, CLOSE_GOING_AWAY.reason);
        }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    closed,
    new Promise((resolve) => (timer = setTimeout(resolve, GOING_AWAY_GRACE_MS))),
  ]);
  clearTimeout(timer);
  for (const socket of server.clients) socket.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
