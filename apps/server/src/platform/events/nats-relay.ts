import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type NatsConnection, type Subscription, connect } from 'nats';
import { type Backoff, backoffDelayMs } from '../backoff.ts';
import { BaseRelay, RELAY_BACKOFF, type Relay } from '../relay.ts';

type Log = Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;

/** A key becomes one or more subject tokens: no spaces, no wildcards, no empty token. */
const KEY_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
/** At most this many events wait while there is no connection at all; beyond it the oldest go. */
const MAX_QUEUED = 10_000;
/** How long closing waits for what is buffered to reach the server. */
const DRAIN_TIMEOUT_MS = 2_000;

export interface NatsRelayOptions {
  /** NATS_URL: one server or several, comma-separated (`nats://127.0.0.1:4222`). */
  servers: string;
  /**
   * Whether this process hears other processes' events (default true). A process without
   * sockets (ROLE=worker) only sends, and subscribes to nothing.
   */
  listen?: boolean;
  /** Starts every subject, so that several installations can share one NATS. */
  prefix?: string;
  log?: Log;
  /** Backoff between fresh connections after the client gave up on one (it retries on its own first). */
  backoff?: Backoff;
  /** Between the client's own reconnect attempts. */
  reconnectWaitMs?: number;
}

interface Interest {
  topic: string;
  /** Sockets (or other wants) of this process that need the subject; at 0 the subscription goes. */
  count: number;
  subscription: Subscription | null;
}

/**
 * Cross-process events over NATS subjects (ARCHITECTURE §2, decision 0027): an event sent
 * with a key goes to `<prefix>.<topic>.<key>` (`tradewind.hub.user.42`,
 * `tradewind.market.ticks.BTCUSDT`), and a process subscribes to a subject only while one of
 * its sockets needs it: a node receives what its own sockets asked for and nothing else,
 * where LISTEN/NOTIFY hands every node every event. `send` delivers to this process's
 * handlers at once, and the connection is opened with `noEcho` so it never comes back.
 *
 * The client reconnects on its own (without limit) and subscribes again to what it had;
 * should a connection close for good, a new one is opened and every current interest is
 * subscribed again. Delivery is core NATS, at most once: a node misses what is published
 * while it is disconnected, as with LISTEN/NOTIFY, and a client that reconnects refetches.
 */
export class NatsRelay extends BaseRelay implements Relay {
  /** Publishing to a subject nobody wants costs the server nothing to drop: always send. */
  readonly reachesOthers = true;
  readonly origin = crypto.randomBytes(6).toString('base64url');
  private readonly prefix: string;
  private readonly interests = new Map<string, Interest>();
  private connection: NatsConnection | null = null;
  /** Between the client's `disconnect` and `reconnect`: it would discard what is published meanwhile. */
  private away = false;
  private queue: { subject: string; payload: string }[] = [];
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Events received from other processes, by topic (tests and bench/events count them). */
  readonly received = new Map<string, number>();

  constructor(private readonly options: NatsRelayOptions) {
    super(options.log);
    this.prefix = options.prefix ?? 'tradewind';
  }

  private get listens(): boolean {
    return this.options.listen !== false;
  }

  get connected(): boolean {
    return this.connection !== null && !this.away && !this.connection.isClosed();
  }

  /** How many times a connection of this relay was lost (a short loss may be over before anyone looks). */
  disconnects = 0;

  /** The subjects this process is subscribed to now. */
  get subjects(): string[] {
    return [...this.interests.keys()];
  }

  subjectOf(topic: string, key?: string): string {
    return key === undefined ? `${this.prefix}.${topic}` : `${this.prefix}.${topic}.${key}`;
  }

  override on(topic: string, handler: (payload: string) => void): void {
    super.on(topic, handler);
    // Events sent without a key are for every listening process.
    if (this.listens && !this.interests.has(this.subjectOf(topic))) this.want(topic);
  }

  send(topic: string, payload: string, key?: string): void {
    this.dispatch(topic, payload);
    if (this.closed) return;
    if (key !== undefined && !KEY_PATTERN.test(key)) {
      this.log?.warn(
        { topic, key },
        'relay: key is not a NATS subject, delivered in this process only',
      );
      return;
    }
    const subject = this.subjectOf(topic, key);
    const connection = this.connection;
    if (!connection || this.away) {
      if (this.queue.length >= MAX_QUEUED) {
        this.queue.shift();
        this.log?.warn({ topic }, 'relay: queue full, oldest event dropped for other processes');
      }
      this.queue.push({ subject, payload });
      return;
    }
    this.publish(connection, subject, payload);
  }

  private publish(connection: NatsConnection, subject: string, payload: string): void {
    const maxBytes = connection.info?.max_payload;
    if (maxBytes !== undefined && Buffer.byteLength(payload) > maxBytes) {
      this.log?.warn(
        { subject, maxBytes },
        'relay: event larger than the server takes, delivered in this process only',
      );
      return;
    }
    try {
      connection.publish(subject, payload);
    } catch (error) {
      this.log?.warn({ err: error, subject }, 'relay: publish failed; other processes miss it');
    }
  }

  override want(topic: string, key?: string): void {
    if (!this.listens) return;
    if (key !== undefined && !KEY_PATTERN.test(key)) return;
    const subject = this.subjectOf(topic, key);
    const interest = this.interests.get(subject);
    if (interest) {
      interest.count += 1;
      return;
    }
    const fresh: Interest = { topic, count: 1, subscription: null };
    this.interests.set(subject, fresh);
    if (this.connection) fresh.subscription = this.subscribe(this.connection, subject, topic);
  }

  override unwant(topic: string, key?: string): void {
    const subject = this.subjectOf(topic, key);
    const interest = this.interests.get(subject);
    if (!interest) return;
    interest.count -= 1;
    if (interest.count > 0) return;
    this.interests.delete(subject);
    interest.subscription?.unsubscribe();
  }

  private subscribe(connection: NatsConnection, subject: string, topic: string): Subscription {
    return connection.subscribe(subject, {
      callback: (error, message) => {
        if (error) {
          this.log?.warn({ err: error, subject }, 'relay: subscription failed');
          return;
        }
        this.received.set(topic, (this.received.get(topic) ?? 0) + 1);
        this.dispatch(topic, message.string());
      },
    });
  }

  /** Resolves once the server has seen every subscription and publish made so far. */
  async flush(): Promise<void> {
    await this.connection?.flush();
  }

  async start(): Promise<void> {
    this.closed = false;
    try {
      await this.connectOnce();
    } catch (error) {
      this.log?.error({ err: error }, 'relay: NATS connection failed; retrying');
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const connection = this.connection;
    this.connection = null;
    this.queue = [];
    if (!connection) return;
    // Drain sends what is still buffered before the connection closes; a server that is away
    // gets DRAIN_TIMEOUT_MS, then the connection is closed as it is.
    let timer: NodeJS.Timeout | undefined;
    const drained = connection.drain().catch(() => undefined);
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    });
    await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    if (!connection.isClosed()) await connection.close().catch(() => undefined);
  }

  private async connectOnce(): Promise<void> {
    const connection = await connect({
      servers: this.options.servers.split(',').map((server) => server.trim()),
      name: `tradewind-${this.origin}`,
      noEcho: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: this.options.reconnectWaitMs ?? 500,
    });
    if (this.closed) {
      await connection.close();
      return;
    }
    this.connection = connection;
    this.attempt = 0;
    for (const [subject, interest] of this.interests)
      interest.subscription = this.subscribe(connection, subject, interest.topic);
    this.away = false;
    this.sendQueued(connection);
    void this.watch(connection);
  }

  private sendQueued(connection: NatsConnection): void {
    const queued = this.queue;
    this.queue = [];
    for (const { subject, payload } of queued) this.publish(connection, subject, payload);
  }

  /** Logs what the connection goes through, and opens a new one if it closes for good. */
  private async watch(connection: NatsConnection): Promise<void> {
    void (async () => {
      for await (const status of connection.status()) {
        if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
        this.log?.warn({ status: status.type, server: status.data }, `relay: NATS ${status.type}`);
        if (this.connection !== connection) return;
        // The client empties its outgoing buffer on each new dial: what is sent while it is
        // away waits here instead, and goes out once it is back.
        this.away = status.type === 'disconnect';
        if (this.away) this.disconnects += 1;
        else this.sendQueued(connection);
      }
    })().catch(() => undefined);
    const error = await connection.closed();
    if (this.connection !== connection || this.closed) return;
    this.connection = null;
    for (const interest of this.interests.values()) interest.subscription = null;
    this.log?.warn({ err: error }, 'relay: NATS connection closed; opening a new one');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = backoffDelayMs(this.options.backoff ?? RELAY_BACKOFF, this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connectOnce().catch((error: unknown) => {
        this.log?.warn({ err: error }, 'relay: NATS reconnect failed');
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }
}
