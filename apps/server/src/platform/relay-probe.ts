// The event bus's delivery lag, measured: every process that sends sends a probe every
// PROBE_INTERVAL_MS, stamped with its send time; every process that hears another's probe
// records the difference (tradewind_event_bus_delivery_lag_seconds). The probes travel as any
// event does (NATS subject or NOTIFY), so their lag is the events' lag; on one host (or NTP-synced
// hosts) the clocks agree to well under the buckets' resolution.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';
import type { Relay } from './relay.ts';

export const PROBE_TOPIC = 'relay.probe';
export const PROBE_INTERVAL_MS = 5_000;

export function startRelayProbe(
  app: FastifyInstance,
  relay: Relay,
  metrics: Pick<Metrics, 'eventBusLag'>,
  intervalMs: number = PROBE_INTERVAL_MS,
): void {
  const origin = randomBytes(6).toString('base64url');
  relay.on(PROBE_TOPIC, (payload) => {
    const [from, at] = payload.split(' ');
    const sentAt = Number(at);
    if (from === origin || !Number.isFinite(sentAt)) return;
    metrics.eventBusLag.observe(Math.max(0, Date.now() - sentAt) / 1000);
  });
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (relay.reachesOthers) relay.send(PROBE_TOPIC, `${origin} ${Date.now()}`);
    }, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
