import { INSTRUMENTS } from '@tradewind/contract/market';
import { formatAmount } from '@tradewind/contract/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import type { Hub } from '#platform/ws.ts';
import type { MarketFeed } from './feed.ts';
import { lastRecordedPrices } from './service.ts';
import { ticks } from './tables.ts';

export const RECORD_INTERVAL_MS = 1_000;

export interface RecorderDeps {
  db: Db;
  clock: Clock;
  feed: MarketFeed;
  hub?: Hub;
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>;
}

/**
 * The only writer of prices: once a second it asks the feed for every instrument's price
 * and appends the ticks. Ticks are stamped with the whole second, and (instrument, ts) is
 * unique, so recorders in several worker processes never record a second twice.
 */
export class MarketRecorder {
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;

  constructor(private readonly deps: RecorderDeps) {}

  /** Continues the feed from the last recorded prices (after a restart). */
  async resume(): Promise<void> {
    this.deps.feed.resume?.(await lastRecordedPrices(this.deps.db));
  }

  /** Records one tick per instrument at `now` (truncated to the second); returns how many were new. */
  async recordOnce(now: Date = this.deps.clock.now()): Promise<number> {
    const ts = new Date(Math.floor(now.getTime() / RECORD_INTERVAL_MS) * RECORD_INTERVAL_MS);
    const prices = await this.deps.feed.sample(now);
    if (prices.length === 0) return 0;
    const source = this.deps.feed.source;
    const inserted = await this.deps.db
      .insert(ticks)
      .values(prices.map((p) => ({ instrument: p.instrument, ts, priceMinor: p.priceMinor, source })))
      .onConflictDoNothing()
      .returning({ instrument: ticks.instrument, priceMinor: ticks.priceMinor });
    for (const row of inserted) {
      const scale = INSTRUMENTS[row.instrument as keyof typeof INSTRUMENTS]?.priceScale;
      if (scale !== undefined) this.deps.hub?.publish(`ticker.${row.instrument}`, { instrument: row.instrument, price: formatAmount(row.priceMinor, scale), ts: ts.toISOString(), source });
    }
    return inserted.length;
  }

  /** Runs the loop on whole seconds until `stop()`. A failed second is logged and the next one tried. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.deps.log?.info({ source: this.deps.feed.source }, 'market recorder started');
    this.schedule();
  }

  /** Stops the loop and waits for a second being recorded to finish (app close calls this before the database closes). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  get isRunning(): boolean {
    return this.running;
  }

  private schedule(): void {
    const nowMs = this.deps.clock.now().getTime();
    const delay = RECORD_INTERVAL_MS - (nowMs % RECORD_INTERVAL_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.current = this.recordOnce()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.log?.error({ err: error }, 'market recorder: a second was not recorded'))
        .finally(() => {
          this.current = null;
          if (this.running) this.schedule();
        });
    }, delay);
  }
}
