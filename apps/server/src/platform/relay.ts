import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';

export type RelayHandler = (payload: string) => void;
type Log = Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;

/**
 * Carries events between the server's processes (ARCHITECTURE §2): a tick recorded or an
 * order settled in a worker must reach the sockets of every API process. `send` delivers
 * to this process's handlers at once (synchronously) and to every other process's
 * handlers of the same topic as soon as the database passes it on. Delivery to other
 * processes is best effort, like any real-time push: a client that reconnects refetches.
 */
export interface Relay {
  /** True when other processes hear what this one sends (PostgreSQL); false on PGlite. */
  readonly crossProcess: boolean;
  send(topic: string, payload: string): void;
  on(topic: string, handler: RelayHandler): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

abstract class BaseRelay {
  private readonly handlers = new Map<string, RelayHandler[]>();

  constructor(protected readonly log?: Log) {}

  on(topic: string, handler: RelayHandler): void {
    const list = this.handlers.get(topic);
    if (list) list.push(handler);
    else this.handlers.set(topic, [handler]);
  }

  protected dispatch(topic: string, payload: string): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.log?.error({ err: error, topic }, 'relay: a handler failed');
      }
    }
  }
}

/** One process (PGlite): events stay in the process. */
export class LocalRelay extends BaseRelay implements Relay {
  readonly crossProcess = false;

  send(topic: string, payload: string): void {
    this.dispatch(topic, payload);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {}
}

export const NOTIFY_CHANNEL = 'tradewind';
/** PostgreSQL refuses NOTIFY payloads from 8000 bytes; keep a margin for the envelope. */
export const MAX_NOTIFY_BYTES = 7_500;
/** At most this many notifications wait for the connection; beyond it the oldest are dropped (and logged). */
const MAX_QUEUED = 10_000;
const NOTIFY_BATCH = 500;

export interface PgRelayOptions {
  /** A new, connected client outside the pool: LISTEN needs a connection of its own. */
  connect: () => Promise<pg.Client>;
  log?: Log;
  /** Reconnect backoff after the LISTEN connection drops. */
  backoff?: { baseMs: number; maxMs: number };
}

/**
 * Several processes on one PostgreSQL: one dedicated connection per process LISTENs on
 * `tradewind` and also sends (`pg_notify`, batched, in order). Each notification carries
 * the sending process's random origin, so a process skips its own (it delivered those
 * already, at once). While the connection is down, events still reach this process's
 * own sockets; other processes miss them until it is back.
 */
export class PgRelay extends BaseRelay implements Relay {
  readonly crossProcess = true;
  readonly origin = crypto.randomBytes(6).toString('base64url');
  private client: pg.Client | null = null;
  private queue: string[] = [];
  private flushing = false;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: PgRelayOptions) {
    super(options.log);
  }

  get listening(): boolean {
    return this.client !== null;
  }

  send(topic: string, payload: string): void {
    this.dispatch(topic, payload);
    const message = `${this.origin}\n${topic}\n${payload}`;
    const bytes = Buffer.byteLength(message);
    if (bytes > MAX_NOTIFY_BYTES) {
      this.log?.warn({ topic, bytes }, 'relay: event too large for NOTIFY, delivered in this process only');
      return;
    }
    if (this.closed) return;
    if (this.queue.length >= MAX_QUEUED) {
      this.queue.shift();
      this.log?.warn({ topic }, 'relay: queue full, oldest event dropped for other processes');
    }
    this.queue.push(message);
    this.flush();
  }

  async start(): Promise<void> {
    this.closed = false;
    try {
      await this.connectOnce();
    } catch (error) {
      this.log?.error({ err: error }, 'relay: LISTEN connection failed; retrying');
      this.scheduleReconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    this.queue = [];
    await client?.end().catch(() => undefined);
  }

  private async connectOnce(): Promise<void> {
    const client = await this.options.connect();
    client.on('notification', (message) => this.onNotification(message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.attempt = 0;
    this.flush();
  }

  private onNotification(message: pg.Notification): void {
    if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
    const first = message.payload.indexOf('\n');
    const second = message.payload.indexOf('\n', first + 1);
    if (first < 0 || second < 0) return;
    if (message.payload.slice(0, first) === this.origin) return;
    this.dispatch(message.payload.slice(first + 1, second), message.payload.slice(second + 1));
  }

  private flush(): void {
    const client = this.client;
    if (this.flushing || !client || this.queue.length === 0) return;
    const batch = this.queue.splice(0, NOTIFY_BATCH);
    this.flushing = true;
    // unnest yields the batch in order, and NOTIFY keeps a transaction's order.
    client
      .query('select pg_notify($1, m) from unnest($2::text[]) as m', [NOTIFY_CHANNEL, batch])
      .catch((error: unknown) => this.log?.warn({ err: error, dropped: batch.length }, 'relay: NOTIFY failed; other processes miss these events'))
      .finally(() => {
        this.flushing = false;
        this.flush();
      });
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.log?.warn({ err: error }, 'relay: LISTEN connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 500, maxMs: 30_000 };
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(this.attempt, 16));
    this.attempt += 1;
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connectOnce().catch((error: unknown) => {
        this.log?.warn({ err: error }, 'relay: reconnect failed');
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }
}
