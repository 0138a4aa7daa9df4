import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/** A counter's round trip past this fails it: a request never waits on a stuck Redis. */
const COMMAND_TIMEOUT_MS = 500;
/** Between reconnect attempts, growing to this. */
const MAX_RECONNECT_WAIT_MS = 5_000;
/** At most one "Redis unreachable" warning this often, however many requests meet it. */
const WARN_EVERY_MS = 60_000;

/**
 * The Redis connection that holds counters every node shares (REDIS_URL; ARCHITECTURE §10).
 *
 * It fails fast instead of queueing: with no connection a command errors at once (no offline
 * queue, one try), so the caller decides what a missing counter means (rate-limits.ts lets the
 * request through and the per-account sign-in throttle, in the database, still holds). The
 * client reconnects on its own; a lost connection is logged once a minute at most, and its
 * return once.
 */
export function connectRedis(url: string, log: Log): Redis {
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(MAX_RECONNECT_WAIT_MS, 100 * 2 ** Math.min(times, 6)),
    connectionName: 'tradewind',
  });
  let lastWarnAt = 0;
  let down = false;
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastWarnAt < WARN_EVERY_MS) return;
    lastWarnAt = now;
    down = true;
    log.warn({ err: error.message }, 'redis: unreachable; shared counters are not being kept');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    lastWarnAt = 0;
    log.info('redis: connected again; shared counters resume');
  });
  return client;
}

/**
 * Waits, at most `timeoutMs`, for the first connection: a node that starts serving before
 * Redis answers would let its first requests through uncounted. Never throws: a node whose
 * Redis is down still starts (and says so in the log).
 */
export async function awaitRedis(client: Redis, timeoutMs = 3_000): Promise<boolean> {
  if (client.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on('ready', onReady);
  });
}

/** Closes the connection, or drops it if QUIT cannot be sent (no connection). */
export async function closeRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
