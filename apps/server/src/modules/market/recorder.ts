import { isInstrumentSymbol } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import { type Db, queryRows } from '#platform/db.ts';
import type { Relay } from '#platform/relay.ts';
import type { MarketFeed } from './feed.ts';
import { lastRecordedPrices } from './service.ts';
import { type TickReference, tickReferenceColumns, unreferencedTick } from './tick-references.ts';

export const RECORD_INTERVAL_MS = 1_000;
/** The retention prune runs about once a minute, between two recorded seconds. */
export const PRUNE_INTERVAL_MS = 60_000;
/** Rows per prune transaction, and transactions per run: a backlog is worked off over several minutes, never in one long lock. */
const PRUNE_BATCH = 5_000;
const PRUNE_BATCHES_PER_RUN = 20;
/** Several workers may prune at once; this lock lets one do it while the others skip. */
const PRUNE_LOCK_ID = 7_441_002;

/** The relay topic of recorded ticks: every process turns them into ticker and kline messages for its own sockets. */
export const TICKS_TOPIC = 'market.ticks';

export interface TicksEvent {
  ts: string;
  items: { symbol: string; tickId: string; priceMinor: string; source: string }[];
}

export interface RecorderDeps {
  db: Db;
  clock: Clock;
  feed: MarketFeed;
  relay?: Relay;
  /** Raw ticks older than this many days are pruned (candles are kept); unset: never. */
  tickRetentionDays?: number;
  /** Columns that hold tick ids, as their modules declare them (src/tick-references.ts): the prune keeps every tick they name. */
  tickReferences?: readonly TickReference[];
  log?: Pick<FastifyBaseLogger, 'error' | 'info' | 'warn'>;
}

/**
 * The only writer of prices: once a second it asks the feed for every instrument's price
 * and appends the ticks, and in the same statement folds them into the 1-minute candles.
 * Ticks are stamped with the whole second, and (instrument, ts) is unique, so recorders in
 * several worker processes never record a second twice (nor count it twice in a candle).
 */
export class MarketRecorder {
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private lastPruneAtMs: number | null = null;
  /** Everything older than this was pruned, except ticks still referred to: the next run starts here. */
  private prunedBefore: Date | null = null;

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
    const input = sql.join(
      prices.map((p) => sql`(${p.instrument}::text, ${p.priceMinor.toString()}::numeric, ${p.source ?? this.deps.feed.source}::text, ${(p.volumeMinor ?? 0n).toString()}::numeric)`),
      sql`, `,
    );
    // One statement: the ticks and their candles commit together or not at all. A tick
    // that arrives late still lands right: open and close follow the ticks' own times.
    const inserted = await this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('tradewind.recorder', 'on', true)`);
      return queryRows<{ id: string; instrument: string; price: string; source: string }>(
        tx,
        sql`with input (instrument, price_minor, source, volume_minor) as (values ${input}),
            inserted as (
              insert into market_ticks (instrument, ts, price_minor, source)
              select instrument, ${ts.toISOString()}::timestamptz, price_minor, source from input
              on conflict (instrument, ts) do nothing
              returning id, instrument, ts, price_minor, source
            ),
            candles as (
              insert into market_candles_1m as c (instrument, open_time, open_minor, high_minor, low_minor, close_minor, volume_minor, tick_count, first_ts, last_ts)
              select i.instrument, date_bin('1 minute', i.ts, timestamptz '2000-01-03 00:00:00+00'), i.price_minor, i.price_minor, i.price_minor, i.price_minor, input.volume_minor, 1, i.ts, i.ts
              from inserted i join input on input.instrument = i.instrument
              on conflict (instrument, open_time) do update set
                open_minor = case when excluded.first_ts < c.first_ts then excluded.open_minor else c.open_minor end,
                close_minor = case when excluded.last_ts > c.last_ts then excluded.close_minor else c.close_minor end,
                high_minor = greatest(c.high_minor, excluded.high_minor),
                low_minor = least(c.low_minor, excluded.low_minor),
                volume_minor = c.volume_minor + excluded.volume_minor,
                tick_count = c.tick_count + 1,
                first_ts = least(c.first_ts, excluded.first_ts),
                last_ts = greatest(c.last_ts, excluded.last_ts)
              returning 1
            )
            select id::text, instrument, price_minor::text as price, source from inserted order by instrument`,
      );
    });
    if (inserted.length > 0 && this.deps.relay) {
      const event: TicksEvent = {
        ts: ts.toISOString(),
        items: inserted.filter((row) => isInstrumentSymbol(row.instrument)).map((row) => ({ symbol: row.instrument, tickId: row.id, priceMinor: row.price, source: row.source })),
      };
      this.deps.relay.send(TICKS_TOPIC, JSON.stringify(event));
    }
    return inserted.length;
  }

  /**
   * Deletes raw ticks older than the retention, except those another table refers to
   * (orders' open and close ticks, conversion quotes); candles are kept. The transaction
   * announces itself to the append-only trigger, which also refuses anything younger
   * than a day by the database's clock. Returns how many ticks were deleted.
   */
  async pruneTicks(now: Date = this.deps.clock.now()): Promise<number> {
    const days = this.deps.tickRetentionDays;
    if (days === undefined) return 0;
    const cutoff = new Date(now.getTime() - days * 86_400_000);
    const notReferenced = unreferencedTick(await tickReferenceColumns(this.deps.db, this.deps.tickReferences ?? []));
    const lowerBound = this.prunedBefore ? sql`and t.ts >= ${this.prunedBefore.toISOString()}::timestamptz` : sql``;
    let total = 0;
    for (let batch = 0; batch < PRUNE_BATCHES_PER_RUN; batch++) {
      const result = await this.deps.db.transaction(async (tx) => {
        const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${PRUNE_LOCK_ID}) as locked`);
        if (!lock?.locked) return null;
        await tx.execute(sql`select set_config('tradewind.tick_prune', 'on', true)`);
        // The trigger refuses ticks younger than a day by the database's clock: never ask it to.
        const [bound] = await queryRows<{ before: Date | string }>(tx, sql`select least(${cutoff.toISOString()}::timestamptz, now() - interval '1 day') as before`);
        const before = new Date(bound?.before ?? cutoff);
        const rows = await queryRows<{ id: string }>(
          tx,
          sql`delete from market_ticks where id in (
                select t.id from market_ticks t
                where t.ts < ${before.toISOString()}::timestamptz ${lowerBound} and ${notReferenced}
                order by t.ts limit ${PRUNE_BATCH}
              ) returning id::text`,
        );
        return { deleted: rows.length, before };
      });
      if (result === null) return total;
      total += result.deleted;
      if (result.deleted < PRUNE_BATCH) {
        this.prunedBefore = result.before;
        break;
      }
    }
    return total;
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

  /** One turn of the loop: record this second, and prune old ticks when a minute has passed since the last prune. */
  async step(): Promise<void> {
    await this.recordOnce().catch((error: unknown) => this.deps.log?.error({ err: error }, 'market recorder: a second was not recorded'));
    const nowMs = this.deps.clock.now().getTime();
    if (this.deps.tickRetentionDays !== undefined && (this.lastPruneAtMs === null || nowMs - this.lastPruneAtMs >= PRUNE_INTERVAL_MS)) {
      this.lastPruneAtMs = nowMs;
      await this.pruneTicks()
        .then((deleted) => {
          if (deleted > 0) this.deps.log?.info({ deleted }, 'market recorder: old ticks pruned');
        })
        .catch((error: unknown) => this.deps.log?.error({ err: error }, 'market recorder: pruning old ticks failed'));
    }
  }

  private schedule(): void {
    const nowMs = this.deps.clock.now().getTime();
    const delay = RECORD_INTERVAL_MS - (nowMs % RECORD_INTERVAL_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.current = this.step().finally(() => {
        this.current = null;
        if (this.running) this.schedule();
      });
    }, delay);
  }
}
