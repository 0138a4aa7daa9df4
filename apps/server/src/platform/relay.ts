import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { type Backoff, backoffDelayMs } from './backoff.ts';

/** A lost event connection is opened again after 0.25–0.5 s, doubling up to 15–30 s. */
export const RELAY_BACKOFF: Backoff = { baseMs: 500, maxMs: 30_000 };

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
  /**
   * Whether what is sent now can reach another process: false on PGlite, and false while no
   * other process that listens is known (a single server process, as `npm start` runs it),
   * so that nothing is serialised or sent for nobody.
   */
  readonly reachesOthers: boolean;
  /** Whether the link to the other processes is up now (readiness, metrics); always true in one process. */
  readonly connected: boolean;
  /**
   * `key` names what the event is about (a hub channel such as `user.42`, an instrument): a
   * relay that routes by subject (NATS) carries a keyed event only to the processes that
   * `want` its topic and key; one that broadcasts (LISTEN/NOTIFY) carries it to every process.
   */
  send(topic: string, payload: string, key?: string): void;
  on(topic: string, handler: RelayHandler): void;
  /**
   * This process wants other processes' events of `topic` sent with `key` (a socket here
   * subscribed to what they are about). Counted: `unwant` as often as `want` and it stops
   * wanting them. Events sent without a key reach every listening process regardless.
   */
  want(topic: string, key: string): void;
  unwant(topic: string, key: string): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

export abstract class BaseRelay {
  private readonly handlers = new Map<string, RelayHandler[]>();

  constructor(protected readonly log?: Log) {}

  on(topic: string, handler: RelayHandler): void {
    const list = this.handlers.get(topic);
    if (list) list.push(handler);
    else this.handlers.set(topic, [handler]);
  }

  /** A broadcasting relay carries every event to every process: what a process wants changes nothing. */
  want(_topic: string, _key: string): void {}

  unwant(_topic: string, _key: string): void {}

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
  readonly reachesOthers = false;
  readonly connected = true;

  send(topic: string, payload: string): void {
    this.dispatch(topic, payload);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {}
}

export const NOTIFY_CHANNEL = 'tradewind';
/** PostgreSQL refuses NOTIFY payloads from 8000 bytes; keep a margin for the envelope. */
export const MAX_NOTIFY_BYTES = 7_500;
/** At most this many events wait for the connection; beyond it the oldest are dropped (and logged). */
const MAX_QUEUED = 10_000;
/** Notifications per `pg_notify` round trip. */
const NOTIFY_BATCH = 500;
/** Marks the packed format (below); a notification without it is not ours and is ignored. */
const FORMAT = 'tw2';
/**
 * Separates notifications in the one text parameter of a flush (split again in SQL): an
 * array parameter would have the driver quote and escape every JSON payload, which cost
 * more than the rest of a settlement batch's JavaScript. Events containing it are not relayed.
 */
const SEPARATOR = '\u001e';
/**
 * The relay's own topic: listening processes announce themselves on it (`ask` when they
 * start or reconnect, which every other listening process answers with `here`; `here` again
 * every PEER_HEARTBEAT_MS; `bye` when they close).
 */
export const PEER_TOPIC = 'relay.peer';
const PEER_HEARTBEAT_MS = 10_000;
/** A listening process not heard from for this long is taken to be gone. */
const PEER_TTL_MS = 3 * PEER_HEARTBEAT_MS + 5_000;

/** An event waiting to go out: its frame in a notification, and the frame's size in bytes. */
interface Frame {
  text: string;
  bytes: number;
}

/**
 * Several events share one notification, up to MAX_NOTIFY_BYTES: a settlement batch of 2,000
 * orders publishes some 2,000 events, and on bench/settlement one NOTIFY each cost the
 * database as much as settling the orders (lag p50 about twice as long). A notification is
 * `tw2\n<origin>\n` followed by frames `<topic>\n<payload length in UTF-16 units>\n<payload>`.
 */
function frameOf(topic: string, payload: string): Frame {
  const text = `${topic}\n${payload.length}\n${payload}`;
  return { text, bytes: Buffer.byteLength(text) };
}

/** Splits a notification back into its events; null when it is not in the packed format. */
export function unpack(
  notification: string,
): { origin: string; events: { topic: string; payload: string }[] } | null {
  const head = `${FORMAT}\n`;
  if (!notification.startsWith(head)) return null;
  let at = notification.indexOf('\n', head.length);
  if (at < 0) return null;
  const origin = notification.slice(head.length, at);
  const events: { topic: string; payload: string }[] = [];
  at += 1;
  while (at < notification.length) {
    const topicEnd = notification.indexOf('\n', at);
    const lengthEnd = topicEnd < 0 ? -1 : notification.indexOf('\n', topicEnd + 1);
    if (lengthEnd < 0) return null;
    const length = Number(notification.slice(topicEnd + 1, lengthEnd));
    if (!Number.isInteger(length) || length < 0 || lengthEnd + 1 + length > notification.length)
      return null;
    events.push({
      topic: notification.slice(at, topicEnd),
      payload: notification.slice(lengthEnd + 1, lengthEnd + 1 + length),
    });
    at = lengthEnd + 1 + length;
  }
  return { origin, events };
}

export interface PgRelayOptions {
  /** A new, connected client outside the pool: LISTEN needs a connection of its own. */
  connect: () => Promise<pg.Client>;
  /**
   * Whether this process hears other processes' events (default true). A process without
   * sockets (ROLE=worker) only sends: listening, it would receive back everything it sends.
   */
  listen?: boolean;
  log?: Log;
  /** Reconnect backoff after the LISTEN connection drops. */
  backoff?: Backoff;
}

/**
 * Several processes on one PostgreSQL: one dedicated connection per process LISTENs on
 * `tradewind` and also sends (`pg_notify`, batched, in order). Each notification carries
 * the sending process's random origin, so a process skips its own (it delivered those
 * already, at once). While the connection is down, events still reach this process's
 * own sockets; other processes miss them until it is back.
 *
 * Only listening processes (those with sockets) use what is relayed. So a listening
 * process keeps track of the other listening processes (PEER_TOPIC) and sends nothing
 * while there is none: one process alone pays no NOTIFY for each event (on bench/orders,
 * about a tenth of the orders it could place). A process that does not listen (ROLE=worker)
 * cannot know who listens, and always sends. A process that starts announces itself before
 * it takes requests, and the others hear it within a round trip; until then, as for any
 * event while a connection is down, delivery is best effort and a client that reconnects refetches.
 */
export class PgRelay extends BaseRelay implements Relay {
  readonly origin = crypto.randomBytes(6).toString('base64url');
  /** Other listening processes by origin, with when they were last heard (performance.now()). */
  private readonly peers = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | null = null;
  private client: pg.Client | null = null;
  private queue: Frame[] = [];
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

  get connected(): boolean {
    return this.client !== null;
  }

  private get listens(): boolean {
    return this.options.listen !== false;
  }

  get reachesOthers(): boolean {
    return !this.listens || this.peerCount > 0;
  }

  /** The other listening processes heard from lately (expired ones are forgotten here). */
  get peerCount(): number {
    const oldest = performance.now() - PEER_TTL_MS;
    for (const [origin, heard] of this.peers) if (heard < oldest) this.peers.delete(origin);
    return this.peers.size;
  }

  private get head(): string {
    return `${FORMAT}\n${this.origin}\n`;
  }

  send(topic: string, payload: string): void {
    this.dispatch(topic, payload);
    if (this.reachesOthers) this.enqueue(topic, payload);
  }

  private enqueue(topic: string, payload: string): void {
    const frame = frameOf(topic, payload);
    const bytes = Buffer.byteLength(this.head) + frame.bytes;
    if (bytes > MAX_NOTIFY_BYTES) {
      this.log?.warn(
        { topic, bytes },
        'relay: event too large for NOTIFY, delivered in this process only',
      );
      return;
    }
    if (frame.text.includes(SEPARATOR)) {
      this.log?.warn(
        { topic },
        'relay: event contains the record separator, delivered in this process only',
      );
      return;
    }
    if (this.closed) return;
    if (this.queue.length >= MAX_QUEUED) {
      this.queue.shift();
      this.log?.warn({ topic }, 'relay: queue full, oldest event dropped for other processes');
    }
    this.queue.push(frame);
    // Sent once this turn of the event loop is over, so that what one batch publishes packs together.
    if (this.queue.length === 1) setImmediate(() => this.flush());
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
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const client = this.client;
    // The others stop sending for this process now rather than when its heartbeat expires.
    if (client && this.listens && !this.closed) {
      await client
        .query('select pg_notify($1, $2)', [
          NOTIFY_CHANNEL,
          `${this.head}${frameOf(PEER_TOPIC, 'bye').text}`,
        ])
        .catch(() => undefined);
    }
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
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
      if (this.options.listen !== false) await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
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
    if (this.listens) {
      // Asked, every listening process answers: this one knows them all within a round trip.
      this.enqueue(PEER_TOPIC, 'ask');
      this.heartbeat ??= setInterval(() => this.enqueue(PEER_TOPIC, 'here'), PEER_HEARTBEAT_MS);
      this.heartbeat.unref();
    }
    this.flush();
  }

  private onNotification(message: pg.Notification): void {
    if (
      message.channel !== NOTIFY_CHANNEL ||
      !message.payload ||
      message.payload.startsWith(this.head)
    )
      return;
    const packed = unpack(message.payload);
    if (!packed) return;
    for (const { topic, payload } of packed.events) {
      if (topic === PEER_TOPIC) this.heard(packed.origin, payload);
      else this.dispatch(topic, payload);
    }
  }

  private heard(origin: string, announcement: string): void {
    if (announcement === 'bye') {
      this.peers.delete(origin);
      return;
    }
    if (announcement !== 'ask' && announcement !== 'here') return;
    this.peers.set(origin, performance.now());
    if (announcement === 'ask') this.enqueue(PEER_TOPIC, 'here');
  }

  /** Packs waiting events, in order, into at most NOTIFY_BATCH notifications. */
  private pack(): string[] {
    const head = this.head;
    const headBytes = Buffer.byteLength(head);
    const notifications: string[] = [];
    let parts: string[] = [];
    let bytes = headBytes;
    let taken = 0;
    for (const frame of this.queue) {
      if (parts.length > 0 && bytes + frame.bytes > MAX_NOTIFY_BYTES) {
        notifications.push(head + parts.join(''));
        parts = [];
        bytes = headBytes;
        if (notifications.length === NOTIFY_BATCH) break;
      }
      parts.push(frame.text);
      bytes += frame.bytes;
      taken += 1;
    }
    if (parts.length > 0) notifications.push(head + parts.join(''));
    this.queue.splice(0, taken);
    return notifications;
  }

  private flush(): void {
    const client = this.client;
    if (this.flushing || !client || this.queue.length === 0) return;
    const batch = this.pack();
    this.flushing = true;
    // unnest yields the batch in order, and NOTIFY keeps a transaction's order.
    client
      .query('select pg_notify($1, m) from unnest(string_to_array($2::text, $3::text)) as m', [
        NOTIFY_CHANNEL,
        batch.join(SEPARATOR),
        SEPARATOR,
      ])
      .catch((error: unknown) =>
        this.log?.warn(
          { err: error, dropped: batch.length },
          'relay: NOTIFY failed; other processes miss these events',
        ),
      )
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
    const delay = backoffDelayMs(this.options.backoff ?? RELAY_BACKOFF, this.attempt);
    this.attempt += 1;
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
