// The two servers bench/ws-fanout compares, each run in its own child process:
//
//   tradewind — the product's own /ws: buildApp (Fastify, @fastify/websocket, the Hub),
//               broadcasting through `hub.publish` exactly as the market recorder does;
//   bare      — a bare `ws` server doing the least a broadcast can: serialise once, send
//               the same buffer to every subscriber.
//
// The parent sends {start: {rate, seconds}}; each message carries `sentAt` (ms, high
// resolution, comparable across processes) for the clients to measure delivery. The child
// reports its resident memory every 500 ms.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

const CHANNEL = 'ticker.BTCUSDT';
const kind = process.argv[2];
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

let publish: (data: unknown) => void;
let port: number;

if (kind === 'tradewind') {
  const { buildApp } = await import('../../apps/server/src/app.ts');
  const { loadConfig } = await import('../../apps/server/src/platform/config.ts');
  const { openDatabase } = await import('../../apps/server/src/platform/db.ts');
  // On PostgreSQL, as an API process runs at scale (PGlite's embedded engine alone holds
  // several hundred MB of WebAssembly memory, and is not what serves thousands of clients).
  const { freshDatabase } = await import('../lib/harness.ts');
  const databaseUrl = await freshDatabase('tw_bench_fanout');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-fanout-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    DEMO_MODE: 'true',
    DEMO_HISTORY_DAYS: '0',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
  await database.migrate();
  const app = await buildApp({ config, database, logger: false, workers: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  const hub = app.services.hub;
  publish = (data) => hub.publish(CHANNEL, data);
} else if (kind === 'bare') {
  const subscribers = new Set<WebSocket>();
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws', maxPayload: 8192 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (socket) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { op: string; channel: string; id?: unknown };
      if (message.op === 'subscribe' && message.channel === CHANNEL) {
        subscribers.add(socket);
        socket.send(
          JSON.stringify({ op: 'subscribe', id: message.id, channel: CHANNEL, ok: true }),
        );
      }
    });
    socket.on('close', () => subscribers.delete(socket));
  });
  port = (server.address() as { port: number }).port;
  publish = (data) => {
    const buffer = Buffer.from(JSON.stringify({ channel: CHANNEL, data }));
    for (const socket of subscribers) socket.send(buffer, { binary: false });
  };
} else {
  throw new Error(`unknown server kind ${kind}`);
}

let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  send({ rss: process.memoryUsage().rss, peakRss });
}, 500).unref();

process.on('message', (message: { start?: { rate: number; seconds: number } }) => {
  if (!message.start) return;
  const { rate, seconds } = message.start;
  const total = rate * seconds;
  const intervalMs = 1000 / rate;
  const t0 = now();
  let sent = 0;
  // Paced on absolute times, like a feed: a late tick does not shift the ones after it.
  const tick = () => {
    publish({
      symbol: 'BTCUSDT',
      price: (95_000 + sent / 100).toFixed(2),
      ts: new Date().toISOString(),
      source: 'simulated',
      seq: sent,
      sentAt: now(),
    });
    sent++;
    if (sent >= total) {
      setTimeout(() => send({ done: sent, peakRss }), 1000);
      return;
    }
    setTimeout(tick, Math.max(0, t0 + sent * intervalMs - now()));
  };
  tick();
});

send({ listening: port });
