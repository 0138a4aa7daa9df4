// One API node of bench/events, in its own process: buildApp on the shared PostgreSQL
// database with the transport the parent names (`pg`: LISTEN/NOTIFY, `nats`: NATS subjects).
//
//   node --import tsx bench/events/node.ts <pg|nats> <databaseUrl> <dataDir>
//
// Tells the parent {listening: port}. On {start: {rate, seconds, noiseRate, noiseUsers}} it
// publishes, through `hub.publish`, `rate` events a second to the public channel
// `messages.broadcast` (each carrying `sentAt`, comparable across processes) and
// `noiseRate` user events a second to users no socket of the other node holds, as a busy
// node does for its own users; then {published}. On {count} it answers {received}: how many
// hub events other processes delivered to this one.
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db.ts';
import { HUB_TOPIC } from '../../apps/server/src/platform/ws.ts';

const [transport, databaseUrl, dataDir] = process.argv.slice(2) as [string, string, string];
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

const config = loadConfig({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  DEMO_HISTORY_DAYS: '0',
  RATE_LIMIT_ENABLED: 'false',
  LOG_LEVEL: 'warn',
  WEB_DIST: '/nonexistent',
  ADMIN_DIST: '/nonexistent',
  // Every bench socket comes from 127.0.0.1.
  WS_MAX_PER_ADDRESS: '100000',
  WS_MAX_NEW_PER_MINUTE: '1000000',
  ...(transport === 'nats'
    ? {
        NATS_URL: process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222',
        NATS_SUBJECT_PREFIX: process.env.BENCH_NATS_PREFIX ?? 'twbench',
      }
    : {}),
});
const database = await openDatabase({ databaseUrl, dataDir, poolSize: 5 });
const app = await buildApp({ config, database, logger: false, workers: false });
let received = 0;
let own = 0;
// The hub's own handler runs first; this one counts what reached the process, its own sends aside.
app.services.relay.on(HUB_TOPIC, () => {
  received += 1;
});
await app.listen({ port: 0, host: '127.0.0.1' });
send({ listening: (app.server.address() as { port: number }).port });

process.on(
  'message',
  async (message: {
    start?: { rate: number; seconds: number; noiseRate: number; noiseUsers: number };
    count?: true;
    stop?: true;
  }) => {
    if (message.count) send({ received: received - own });
    if (message.stop) {
      await app.close();
      await database.close();
      process.exit(0);
    }
    if (!message.start) return;
    const { rate, seconds, noiseRate, noiseUsers } = message.start;
    const hub = app.services.hub;
    let seq = 0;
    let noise = 0;
    const started = now();
    const until = started + seconds * 1000;
    // Ticks of 10 ms: each sends what is due by then, so a slow turn catches up rather than drifts.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const at = now();
        const due = Math.min(Math.floor(((at - started) / 1000) * rate), rate * seconds);
        while (seq < due) {
          seq += 1;
          own += 1;
          hub.publish('messages.broadcast', { type: 'bench', seq, sentAt: now() });
        }
        const noiseDue = Math.floor(((Math.min(at, until) - started) / 1000) * noiseRate);
        while (noise < noiseDue) {
          noise += 1;
          own += 1;
          // Users 1,000,000 and up: nobody's socket is on the other node.
          hub.publishToUser(1_000_000 + (noise % noiseUsers), { type: 'balance.changed' });
        }
        if (at >= until && seq >= rate * seconds) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    send({ published: seq, noise });
  },
);
