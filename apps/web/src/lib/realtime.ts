/**
 * The app's one WebSocket to `/ws` (ARCHITECTURE §7). Screens subscribe to channels by
 * name; the client counts subscribers per channel and tells the server about the first and
 * the last. The server lets a socket send 20 messages a second (docs/ws-limits.md), so the
 * changes made in one turn of the event loop go out together: one `unsubscribe` and one
 * `subscribe`, each naming all its channels. It authenticates with the stored token so the
 * server joins it to the user's own channel, reconnects with exponential backoff and jitter,
 * and subscribes everything again, in one message, after a reconnect. It is built from its
 * dependencies (the socket factory, timers, the token) so tests drive it with a fake socket
 * and fake time.
 */

/** The part of the browser WebSocket this client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
}

export type TimerHandle = ReturnType<typeof setTimeout>;

export interface RealtimeDeps {
  /** The socket's address, read at every connect (the page's host may differ per deploy). */
  url: () => string;
  createSocket: (url: string) => SocketLike;
  /** The stored session token, or null when signed out. */
  getToken: () => string | null;
  setTimer?: (callback: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
  random?: () => number;
  /** A ping goes out this often while connected. */
  pingIntervalMs?: number;
  /** Silence this long after a ping means the connection is dead, even if no close event came. */
  pongTimeoutMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export type MessageHandler = (data: unknown, channel: string) => void;
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'closed';

const OPEN = 1;
export const PING_INTERVAL_MS = 20_000;
export const PONG_TIMEOUT_MS = 10_000;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/**
 * The backoff starts over only once a socket has stayed open this long: a server that accepts
 * and then drops every socket (a limit tripped on each connect) must not be retried at the
 * shortest delay forever.
 */
export const BACKOFF_RESET_AFTER_MS = 10_000;
/**
 * A close for policy (1008: past the server's message budget) counts as this many failed
 * attempts already, so the first retry waits 2–4 s: reconnecting sends a burst of its own.
 */
export const POLICY_CLOSE_MIN_ATTEMPT = 3;
const CLOSE_POLICY = 1008;
/** The most channels one subscribe or unsubscribe names: the server's default cap (WS_MAX_SUBSCRIPTIONS), which also bounds a batch. */
export const MAX_CHANNELS_PER_MESSAGE = 50;
/** Batches remembered while awaiting their reply; the oldest is forgotten past this (its reply is then ignored). */
const MAX_PENDING_BATCHES = 64;

/**
 * The wait before reconnect attempt `attempt` (0-based): exponential, capped, with
 * "equal jitter" (half fixed, half random) so clients dropped together do not all return
 * in the same instant, and none of them retries in a tight loop.
 */
export function backoffDelayMs(
  attempt: number,
  random: () => number,
  baseMs = BACKOFF_BASE_MS,
  maxMs = BACKOFF_MAX_MS,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

interface Subscription {
  handler?: MessageHandler;
}

type BatchOp = 'subscribe' | 'unsubscribe';

export class RealtimeClient {
  private readonly deps: Required<RealtimeDeps>;
  private socket: SocketLike | null = null;
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly userHandlers = new Set<Subscription>();
  private readonly sinks = new Set<MessageHandler>();
  private readonly stateListeners = new Set<() => void>();
  private state: ConnectionState = 'idle';
  private attempt = 0;
  private reconnectTimer: TimerHandle | null = null;
  private pingTimer: TimerHandle | null = null;
  private pongTimer: TimerHandle | null = null;
  /** Runs the batched subscribe/unsubscribe once this turn's changes are all made. */
  private flushTimer: TimerHandle | null = null;
  /** Fires once the socket has been open long enough to start the backoff over. */
  private stableTimer: TimerHandle | null = null;
  /** The token this socket authenticated with; null when it has not. */
  private authToken: string | null = null;
  /** The channels this socket has asked the server for (and not left since). */
  private serverChannels = new Set<string>();
  /** Channels the server refused on this socket: asked for again only on the next socket. */
  private refusedChannels = new Set<string>();
  /**
   * This socket's batches awaiting their reply, by id: the server applies a batch whole or not
   * at all, so a refusal must be undone channel by channel.
   */
  private readonly batches = new Map<number, { op: BatchOp; channels: string[] }>();
  private nextBatchId = 1;
  private stopped = false;

  constructor(deps: RealtimeDeps) {
    this.deps = {
      setTimer: (callback, ms) => setTimeout(callback, ms),
      clearTimer: (handle) => clearTimeout(handle),
      random: Math.random,
      pingIntervalMs: PING_INTERVAL_MS,
      pongTimeoutMs: PONG_TIMEOUT_MS,
      baseDelayMs: BACKOFF_BASE_MS,
      maxDelayMs: BACKOFF_MAX_MS,
      ...deps,
    };
  }

  /** Subscribes to a channel (opening the connection if needed); returns the unsubscribe. */
  subscribe(channel: string, handler?: MessageHandler): () => void {
    const entry: Subscription = { handler };
    let subscribers = this.channels.get(channel);
    if (!subscribers) {
      subscribers = new Set();
      this.channels.set(channel, subscribers);
      this.scheduleFlush();
    }
    subscribers.add(entry);
    this.start();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(entry);
      if (current.size === 0) {
        this.channels.delete(channel);
        this.scheduleFlush();
      }
    };
  }

  /** Events on the signed-in user's own channel (joined by authenticating, not by subscribing). */
  onUserEvent(handler: MessageHandler): () => void {
    const entry: Subscription = { handler };
    this.userHandlers.add(entry);
    this.start();
    return () => void this.userHandlers.delete(entry);
  }

  /** Sees every message on every channel (the query-cache feed). */
  onMessage(sink: MessageHandler): () => void {
    this.sinks.add(sink);
    return () => void this.sinks.delete(sink);
  }

  /** How many screens hold a channel (0 when none). */
  subscriberCount(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }

  getState(): ConnectionState {
    return this.state;
  }

  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => void this.stateListeners.delete(listener);
  }

  /**
   * Call after a sign-in or sign-out. A new token authenticates the open socket again (the
   * server moves it to the new user's channel); a sign-out reconnects, because only a new
   * socket leaves the old user's channel.
   */
  syncAuth(): void {
    if (this.state !== 'open') return;
    const token = this.deps.getToken();
    if (token === this.authToken) return;
    if (token) {
      this.authToken = token;
      this.send({ op: 'auth', token });
    } else {
      this.restart();
    }
  }

  /** Reconnects at once if the socket is down (the browser came back online, the tab is visible). */
  reconnectNow(): void {
    if (
      this.stopped ||
      this.state === 'open' ||
      this.state === 'connecting' ||
      this.state === 'idle'
    )
      return;
    this.attempt = 0;
    this.clear('reconnect');
    this.connect();
  }

  close(): void {
    this.stopped = true;
    this.clear('reconnect');
    this.dropSocket();
    this.setState('closed');
  }

  private start(): void {
    if (this.state === 'idle' && !this.stopped) this.connect();
  }

  private connect(): void {
    this.reconnectTimer = null;
    this.setState('connecting');
    let socket: SocketLike;
    try {
      socket = this.deps.createSocket(this.deps.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.authToken = null;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.setState('open');
      const token = this.deps.getToken();
      if (token) {
        this.authToken = token;
        this.send({ op: 'auth', token });
      }
      this.flush();
      this.schedulePing();
      this.stableTimer = this.deps.setTimer(() => {
        this.stableTimer = null;
        this.attempt = 0;
      }, BACKOFF_RESET_AFTER_MS);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.clear('pong');
      this.dispatch(event.data);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      if (event.code === CLOSE_POLICY)
        this.attempt = Math.max(this.attempt, POLICY_CLOSE_MIN_ATTEMPT);
      this.lost();
    };
    // A failed connect fires error then close; the close does the work.
    socket.onerror = () => undefined;
  }

  private dispatch(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: {
      channel?: unknown;
      data?: unknown;
      op?: unknown;
      id?: unknown;
      channels?: unknown;
      error?: unknown;
    };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id === 'number') return this.settleBatch(message.id, message);
    if (typeof message.channel !== 'string') return; // other replies to ops (pong, auth)
    const channel = message.channel;
    for (const sink of this.sinks) sink(message.data, channel);
    const subscribers = channel.startsWith('user.')
      ? this.userHandlers
      : this.channels.get(channel);
    for (const entry of subscribers ? [...subscribers] : []) entry.handler?.(message.data, channel);
  }

  private isOpen(): boolean {
    return this.socket !== null && this.state === 'open' && this.socket.readyState === OPEN;
  }

  private send(message: object): void {
    if (this.isOpen()) this.socket?.send(JSON.stringify(message));
  }

  /**
   * Sends this turn's channel changes once it is over: a screen change drops and takes
   * several channels from several components, one call each.
   */
  private scheduleFlush(): void {
    if (this.flushTimer === null && this.state === 'open')
      this.flushTimer = this.deps.setTimer(() => this.flush(), 0);
  }

  /**
   * Tells the server the difference between the channels screens hold and the ones this
   * socket asked for: a channel taken and dropped again in between sends nothing.
   */
  private flush(): void {
    this.clear('flush');
    if (!this.isOpen()) return;
    for (const channel of this.refusedChannels)
      if (!this.channels.has(channel)) this.refusedChannels.delete(channel);
    const leaving = [...this.serverChannels].filter((channel) => !this.channels.has(channel));
    const joining = [...this.channels.keys()].filter(
      (channel) => !this.serverChannels.has(channel) && !this.refusedChannels.has(channel),
    );
    // Places are freed before new ones are taken: the server caps the channels a socket holds.
    this.sendBatches('unsubscribe', leaving);
    this.sendBatches('subscribe', joining);
  }

  private sendBatches(op: BatchOp, channels: string[]): void {
    for (let start = 0; start < channels.length; start += MAX_CHANNELS_PER_MESSAGE) {
      const batch = channels.slice(start, start + MAX_CHANNELS_PER_MESSAGE);
      const id = this.nextBatchId++;
      // The server answers every batch, so only a reply lost to a bug could leave one here for good.
      if (this.batches.size >= MAX_PENDING_BATCHES)
        this.batches.delete(this.batches.keys().next().value as number);
      this.batches.set(id, { op, channels: batch });
      for (const channel of batch) {
        if (op === 'subscribe') this.serverChannels.add(channel);
        else this.serverChannels.delete(channel);
      }
      this.send({ op, channels: batch, id });
    }
  }

  /**
   * A batch's reply. A refused batch changed nothing on the server: its channels are put back
   * as they were, and the ones the server named as unknown are left out of the next try so
   * that one bad channel does not cost a screen all the others.
   */
  private settleBatch(
    id: number,
    reply: { op?: unknown; channels?: unknown; error?: unknown },
  ): void {
    const batch = this.batches.get(id);
    if (!batch) return;
    this.batches.delete(id);
    if (reply.op !== 'error') return;
    const named =
      reply.error === 'unknown_channel' && Array.isArray(reply.channels) ? reply.channels : [];
    const unknown = batch.channels.filter((channel) => named.includes(channel));
    // With no channel named, or another refusal (too many channels), the same batch would only be refused again.
    const refused = new Set(unknown.length > 0 ? unknown : batch.channels);
    for (const channel of batch.channels) {
      if (batch.op === 'subscribe') this.serverChannels.delete(channel);
      else if (!refused.has(channel)) this.serverChannels.add(channel);
    }
    if (batch.op === 'subscribe') for (const channel of refused) this.refusedChannels.add(channel);
    this.scheduleFlush();
  }

  private schedulePing(): void {
    this.clear('ping');
    this.pingTimer = this.deps.setTimer(() => {
      this.send({ op: 'ping' });
      this.clear('pong');
      this.pongTimer = this.deps.setTimer(() => this.lost(), this.deps.pongTimeoutMs);
      this.schedulePing();
    }, this.deps.pingIntervalMs);
  }

  /** The connection is gone (closed, or silent past the pong timeout): try again later. */
  private lost(): void {
    this.dropSocket();
    if (this.stopped) return;
    this.setState('closed');
    this.scheduleReconnect();
  }

  private restart(): void {
    this.dropSocket();
    this.attempt = 0;
    this.connect();
  }

  private scheduleReconnect(): void {
    this.clear('reconnect');
    this.setState('closed');
    const delay = backoffDelayMs(
      this.attempt,
      this.deps.random,
      this.deps.baseDelayMs,
      this.deps.maxDelayMs,
    );
    this.attempt += 1;
    this.reconnectTimer = this.deps.setTimer(() => this.connect(), delay);
  }

  private dropSocket(): void {
    this.clear('ping');
    this.clear('pong');
    this.clear('flush');
    this.clear('stable');
    const socket = this.socket;
    this.socket = null;
    this.authToken = null;
    // The next socket starts with nothing on the server, and may be served by a newer server.
    this.serverChannels = new Set();
    this.refusedChannels = new Set();
    this.batches.clear();
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close();
    } catch {
      // Closing a socket that never opened can throw in some browsers; it is gone either way.
    }
  }

  private clear(which: 'reconnect' | 'ping' | 'pong' | 'flush' | 'stable'): void {
    const key = `${which}Timer` as const;
    const handle = this[key];
    if (handle !== null) this.deps.clearTimer(handle);
    this[key] = null;
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of [...this.stateListeners]) listener();
  }
}
