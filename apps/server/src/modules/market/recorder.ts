import { type InstrumentSymbol, isInstrumentSymbol } from '@tradewind/contract/market';
import {
  type SourceQuote,
  freshQuotes,
  indexPrice,
  medianPrice,
  outsideBand,
} from '@tradewind/contract/price-index';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import { type Db, queryRows } from '#platform/db.ts';
import { type Leadership, soleLeader } from '#platform/leader.ts';
import type { Relay } from '#platform/relay.ts';
import type { FeedPrice, MarketFeed } from './feed.ts';
import type { TickComponent } from './tables.ts';
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
/** The session lock of the one recorder among several workers (platform/leader.ts). */
export const RECORDER_LOCK_ID = 7_441_003;
/** Alone, a source's quote is measured against its own last accepted quote if that is at most this old. */
const OWN_REFERENCE_MS = 60_000;
/** Signed updates are kept this long, and for good when an order refers to their tick. */
const PROOF_RETENTION_MS = 3_600_000;
/** A quote as held for the index, with the source's signature if it gave one. */
type HeldQuote = SourceQuote & { proof?: { feedId: string; update: string } };
/** A source whose newest accepted quote is older than this is stale (readiness, alerts). */
export const FEED_STALE_S = 10;

/** How often the recorder re-reads the install's quarantine band (a change applies within this). */
export const BAND_READ_MS = 10_000;

/** Default quarantine band: 1 % (MARKET_QUARANTINE_BAND_PPM). */
const DEFAULT_BAND_PPM = 10_000;

/** The relay topic of recorded ticks: every process turns them into ticker and kline messages for its own sockets. */
export const TICKS_TOPIC = 'market.ticks';

export interface TicksEvent {
  ts: string;
  items: { symbol: string; tickId: string; priceMinor: string; source: string }[];
}

export interface RecorderDeps {
  db: Db;
  clock: Clock;
  /** Where prices come from: one feed, or several (their quotes are combined into the index). */
  feed?: MarketFeed;
  feeds?: readonly MarketFeed[];
  /** Whether this process may record now (one recorder among several workers); default: always. */
  leadership?: Leadership;
  /**
   * A quote further than this from its reference is quarantined (parts per million): a number,
   * or where to read the install's band (modules/settings), asked at most every BAND_READ_MS.
   */
  quarantineBandPpm?: number | (() => Promise<number>);
  relay?: Relay;
  /** Raw ticks older than this many days are pruned (candles are kept); unset: never. */
  tickRetentionDays?: number;
  /** Columns that hold tick ids, as their modules declare them (src/tick-references.ts): the prune keeps every tick they name. */
  tickReferences?: readonly TickReference[];
  log?: Pick<FastifyBaseLogger, 'error' | 'info' | 'warn'>;
  /** Told of each quarantined quote (metrics). */
  onQuarantined?: (instrument: InstrumentSymbol, source: string) => void;
}

/**
 * The only writer of prices: once a second it asks every feed for its latest quotes,
 * quarantines any too far from its reference, and records per instrument the index (the
 * median of the fresh sources' latest quotes, packages/contract price-index.ts) with the
 * quotes it is the median of; in the same statement it folds the ticks into the 1-minute
 * candles. Ticks are stamped with the whole second, and (instrument, ts) is unique, so
 * recorders in several worker processes never record a second twice. Only one of them
 * records at a time (`leadership`); another takes over when it dies.
 */
export class MarketRecorder {
  private readonly feeds: readonly MarketFeed[];
  /** Per instrument, per source: the latest accepted quote. */
  private readonly accepted = new Map<InstrumentSymbol, Map<string, HeldQuote>>();
  private leading = false;
  /** The quarantine band in force (ppm), and when it was last read from the install's settings. */
  private band = DEFAULT_BAND_PPM;
  private bandReadAtMs = Number.NEGATIVE_INFINITY;
  /** When this process last became the recorder (ms), for the age of a source that never answered. */
  private leadingSinceMs = 0;
  /** Per `instrument\u0000source`, the source time of the latest accepted quote (ms), kept after the feed drops it. */
  private readonly lastAccepted = new Map<string, number>();
  /** Counts since start, for the logs (and later, metrics). */
  readonly counts = { recorded: 0, quarantined: 0, duplicates: 0, outOfOrder: 0 };
  private running = false;
  private lastReportAtMs: number | null = null;
  private reported = '';
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private lastPruneAtMs: number | null = null;
  /** Everything older than this was pruned, except ticks still referred to: the next run starts here. */
  private prunedBefore: Date | null = null;

  constructor(private readonly deps: RecorderDeps) {
    this.feeds = deps.feeds ?? (deps.feed ? [deps.feed] : []);
  }

  /** Continues the feeds from the last recorded prices (after a restart, or on taking over). */
  async resume(): Promise<void> {
    const prices = await lastRecordedPrices(this.deps.db);
    for (const feed of this.feeds) feed.resume?.(prices);
  }

  /**
   * Takes this round's quotes into the accepted set: duplicates and quotes older than the
   * one held are dropped; a quote outside the band around its reference is quarantined.
   */
  private admit(
    prices: readonly (FeedPrice & { source: string })[],
    ts: number,
  ): {
    quarantined: (SourceQuote & { instrument: InstrumentSymbol; referenceMinor: bigint })[];
    volume: Map<InstrumentSymbol, bigint>;
  } {
    const band = this.band;
    const quarantined: (SourceQuote & { instrument: InstrumentSymbol; referenceMinor: bigint })[] =
      [];
    const volume = new Map<InstrumentSymbol, bigint>();
    const sorted = [...prices].sort((a, b) =>
      a.source < b.source ? -1 : a.source > b.source ? 1 : 0,
    );
    for (const price of sorted) {
      if (price.volumeMinor)
        volume.set(price.instrument, (volume.get(price.instrument) ?? 0n) + price.volumeMinor);
      const quote: HeldQuote = {
        source: price.source,
        priceMinor: price.priceMinor,
        sourceTimeMs: price.sourceTimeMs ?? ts,
        receivedAtMs: price.receivedAtMs ?? ts,
        ...(price.proof ? { proof: price.proof } : {}),
      };
      let held = this.accepted.get(price.instrument);
      if (!held) this.accepted.set(price.instrument, (held = new Map()));
      const own = held.get(quote.source);
      if (own && quote.sourceTimeMs <= own.sourceTimeMs) {
        if (quote.sourceTimeMs === own.sourceTimeMs) this.counts.duplicates++;
        else this.counts.outOfOrder++;
        continue;
      }
      const others = freshQuotes(
        [...held.values()].filter((other) => other.source !== quote.source),
        quote.sourceTimeMs,
      );
      const reference =
        others.length > 0
          ? medianPrice(others.map((other) => other.priceMinor))
          : own && quote.sourceTimeMs - own.sourceTimeMs <= OWN_REFERENCE_MS
            ? own.priceMinor
            : null;
      if (reference !== null && outsideBand(quote.priceMinor, reference, band)) {
        this.counts.quarantined++;
        this.deps.onQuarantined?.(price.instrument, quote.source);
        quarantined.push({
          ...quote,
          quarantined: true,
          instrument: price.instrument,
          referenceMinor: reference,
        });
        continue;
      }
      held.set(quote.source, quote);
      this.lastAccepted.set(`${price.instrument}\u0000${quote.source}`, quote.sourceTimeMs);
    }
    return { quarantined, volume };
  }

  /** Records one tick per instrument at `now` (truncated to the second); returns how many were new. */
  async recordOnce(now: Date = this.deps.clock.now()): Promise<number> {
    const ts = new Date(Math.floor(now.getTime() / RECORD_INTERVAL_MS) * RECORD_INTERVAL_MS);
    const tsMs = ts.getTime();
    const perFeed = await Promise.all(
      this.feeds.map(async (feed) =>
        (await feed.sample(now)).map((price) => ({
          ...price,
          source: price.source ?? feed.source,
        })),
      ),
    );
    // A feed vouches only for what it answers now: a quote it no longer answers (its stream
    // dropped, the price went stale) leaves the index at once, however fresh it was.
    this.feeds.forEach((feed, i) => {
      const answered = new Set(
        perFeed[i]?.map((price) => `${price.instrument}\u0000${price.source}`),
      );
      for (const [instrument, held] of this.accepted) {
        for (const source of held.keys())
          if (source === feed.source && !answered.has(`${instrument}\u0000${source}`))
            held.delete(source);
      }
    });
    const sampled = perFeed.flat();
    await this.readBand(now.getTime());
    const { quarantined, volume } = this.admit(sampled, tsMs);
    const rows: {
      instrument: InstrumentSymbol;
      priceMinor: bigint;
      source: string;
      volumeMinor: bigint;
      components: TickComponent[] | null;
      proofs: HeldQuote[];
    }[] = [];
    for (const [instrument, held] of this.accepted) {
      const index = indexPrice([...held.values()], tsMs);
      if (!index) continue;
      const [only] = index.used;
      const plain =
        index.used.length === 1 && only && only.sourceTimeMs === tsMs && only.receivedAtMs === tsMs;
      rows.push({
        instrument,
        priceMinor: index.priceMinor,
        source: index.used.map((quote) => quote.source).join('+'),
        volumeMinor: volume.get(instrument) ?? 0n,
        components: plain
          ? null
          : index.used.map((quote) => [
              quote.source,
              quote.priceMinor.toString(),
              quote.sourceTimeMs - tsMs,
              quote.receivedAtMs - tsMs,
            ]),
        proofs: (index.used as HeldQuote[]).filter((quote) => quote.proof),
      });
    }
    if (quarantined.length > 0) {
      this.deps.log?.warn(
        {
          quarantined: quarantined.map((q) => ({
            instrument: q.instrument,
            source: q.source,
            price: q.priceMinor.toString(),
            reference: q.referenceMinor.toString(),
          })),
        },
        'market recorder: quotes quarantined, kept out of the index',
      );
    }
    if (rows.length === 0 && quarantined.length === 0) return 0;
    const input = rows.length
      ? sql.join(
          rows.map(
            (r) =>
              sql`(${r.instrument}::text, ${r.priceMinor.toString()}::numeric, ${r.source}::text, ${r.volumeMinor.toString()}::numeric, ${r.components === null ? null : JSON.stringify(r.components)}::jsonb)`,
          ),
          sql`, `,
        )
      : sql`(null::text, null::numeric, null::text, null::numeric, null::jsonb)`;
    // One statement: the ticks and their candles commit together or not at all. A tick
    // that arrives late still lands right: open and close follow the ticks' own times.
    const inserted = await this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('tradewind.recorder', 'on', true)`);
      if (quarantined.length > 0) {
        const values = sql.join(
          quarantined.map(
            (q) =>
              sql`(${q.instrument}, ${q.source}, ${q.priceMinor.toString()}::numeric, ${q.referenceMinor.toString()}::numeric, ${new Date(q.sourceTimeMs).toISOString()}::timestamptz, ${new Date(q.receivedAtMs).toISOString()}::timestamptz)`,
          ),
          sql`, `,
        );
        await tx.execute(
          sql`insert into market_quarantined_quotes (instrument, source, price_minor, reference_minor, source_time, received_at) values ${values}`,
        );
      }
      const ticks = await queryRows<{
        id: string;
        instrument: string;
        price: string;
        source: string;
      }>(
        tx,
        sql`with input (instrument, price_minor, source, volume_minor, components) as (values ${input}),
            inserted as (
              insert into market_ticks (instrument, ts, price_minor, source, components)
              select instrument, ${ts.toISOString()}::timestamptz, price_minor, source, components from input where instrument is not null
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
      // The signed updates of the quotes each new tick is the median of, beside it.
      const tickIds = new Map(ticks.map((tick) => [tick.instrument, tick.id]));
      const proofs = rows.flatMap((row) => {
        const tickId = tickIds.get(row.instrument);
        return tickId === undefined
          ? []
          : row.proofs.map(
              (quote) =>
                sql`(${tickId}::bigint, ${quote.source}, ${quote.proof?.feedId}, ${quote.proof?.update}, ${ts.toISOString()}::timestamptz)`,
            );
      });
      if (proofs.length > 0)
        await tx.execute(
          sql`insert into market_tick_proofs (tick_id, source, feed_id, update, recorded_at) values ${sql.join(proofs, sql`, `)}`,
        );
      return ticks;
    });
    this.counts.recorded += inserted.length;
    if (inserted.length > 0 && this.deps.relay) {
      // One event per instrument, keyed by its symbol: a relay by subject (NATS) carries it only
      // to processes with a socket on that instrument's channels.
      for (const row of inserted) {
        if (!isInstrumentSymbol(row.instrument)) continue;
        const event: TicksEvent = {
          ts: ts.toISOString(),
          items: [
            { symbol: row.instrument, tickId: row.id, priceMinor: row.price, source: row.source },
          ],
        };
        this.deps.relay.send(TICKS_TOPIC, JSON.stringify(event), row.instrument);
      }
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
    const notReferenced = unreferencedTick(
      await tickReferenceColumns(this.deps.db, this.deps.tickReferences ?? []),
    );
    const lowerBound = this.prunedBefore
      ? sql`and t.ts >= ${this.prunedBefore.toISOString()}::timestamptz`
      : sql``;
    let total = 0;
    await this.deps.db.execute(
      sql`delete from market_quarantined_quotes where received_at < ${cutoff.toISOString()}::timestamptz`,
    );
    // Signed updates go after an hour unless an order refers to their tick (then they stay with it).
    await this.deps.db.execute(
      sql`delete from market_tick_proofs p where p.recorded_at < ${new Date(now.getTime() - PROOF_RETENTION_MS).toISOString()}::timestamptz
          and not exists (select 1 from market_ticks t where t.id = p.tick_id and not (${notReferenced}))`,
    );
    for (let batch = 0; batch < PRUNE_BATCHES_PER_RUN; batch++) {
      const result = await this.deps.db.transaction(async (tx) => {
        const [lock] = await queryRows<{ locked: boolean }>(
          tx,
          sql`select pg_try_advisory_xact_lock(${PRUNE_LOCK_ID}) as locked`,
        );
        if (!lock?.locked) return null;
        await tx.execute(sql`select set_config('tradewind.tick_prune', 'on', true)`);
        // The trigger refuses ticks younger than a day by the database's clock: never ask it to.
        const [bound] = await queryRows<{ before: Date | string }>(
          tx,
          sql`select least(${cutoff.toISOString()}::timestamptz, now() - interval '1 day') as before`,
        );
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
    this.deps.log?.info(
      { sources: this.feeds.map((feed) => feed.source) },
      'market recorder started',
    );
    this.schedule();
  }

  /** Stops the loop and waits for a second being recorded to finish (app close calls this before the database closes). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
    await this.deps.leadership?.release();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The band from the deps: as given, or re-read from the install's settings every BAND_READ_MS. */
  private async readBand(nowMs: number): Promise<void> {
    const given = this.deps.quarantineBandPpm;
    if (given === undefined || typeof given === 'number') {
      this.band = given ?? DEFAULT_BAND_PPM;
      return;
    }
    if (nowMs - this.bandReadAtMs < BAND_READ_MS) return;
    try {
      this.band = await given();
      this.bandReadAtMs = nowMs;
    } catch (error) {
      // The band last read stays in force; the next second tries again.
      this.deps.log?.error(
        { err: error },
        'market recorder: the quarantine band could not be read',
      );
    }
  }

  /** Whether this process records now (the leader among several workers). */
  get isLeading(): boolean {
    return this.leading;
  }

  /** Per instrument and source, the age (s) of the latest accepted quote, by its source's own time. */
  tickAges(nowMs: number): { instrument: string; source: string; ageS: number }[] {
    return [...this.lastAccepted].map(([key, sourceTimeMs]) => {
      const [instrument = '', source = ''] = key.split('\u0000');
      return { instrument, source, ageS: Math.max(0, nowMs - sourceTimeMs) / 1000 };
    });
  }

  /**
   * Per feed, the age (s) of its newest accepted quote on any instrument; a feed that has
   * accepted nothing since this process began recording counts from then. Markets close (FX
   * at weekends), so a feed is judged by its freshest instrument.
   */
  sourceAges(nowMs: number): Map<string, number> {
    const newest = new Map<string, number>(
      this.feeds.map((feed) => [feed.source, this.leadingSinceMs]),
    );
    for (const [key, sourceTimeMs] of this.lastAccepted) {
      const source = key.split('\u0000')[1] ?? '';
      if (sourceTimeMs > (newest.get(source) ?? 0)) newest.set(source, sourceTimeMs);
    }
    return new Map([...newest].map(([source, ms]) => [source, Math.max(0, nowMs - ms) / 1000]));
  }

  /** One turn of the loop: record this second, and prune old ticks when a minute has passed since the last prune. */
  async step(): Promise<void> {
    const leading = await (this.deps.leadership ?? soleLeader).lead();
    if (leading !== this.leading) {
      this.leading = leading;
      this.deps.log?.info(
        { leading },
        leading
          ? 'market recorder: this process records now'
          : 'market recorder: another process records',
      );
      // Taking over: continue from what the last leader recorded, with nothing held from before.
      if (leading) {
        this.leadingSinceMs = this.deps.clock.now().getTime();
        this.accepted.clear();
        await this.resume().catch((error: unknown) =>
          this.deps.log?.error({ err: error }, 'market recorder: resuming failed'),
        );
      }
    }
    if (!leading) return;
    await this.recordOnce().catch((error: unknown) =>
      this.deps.log?.error({ err: error }, 'market recorder: a second was not recorded'),
    );
    const nowMs = this.deps.clock.now().getTime();
    if (
      this.deps.tickRetentionDays !== undefined &&
      (this.lastPruneAtMs === null || nowMs - this.lastPruneAtMs >= PRUNE_INTERVAL_MS)
    ) {
      this.lastPruneAtMs = nowMs;
      await this.pruneTicks()
        .then((deleted) => {
          if (deleted > 0) this.deps.log?.info({ deleted }, 'market recorder: old ticks pruned');
        })
        .catch((error: unknown) =>
          this.deps.log?.error({ err: error }, 'market recorder: pruning old ticks failed'),
        );
    }
    this.reportCounts(nowMs);
  }

  /** Once a minute, the counts of quotes kept out (quarantined, duplicate, out of order), when they changed. */
  private reportCounts(nowMs: number): void {
    if (this.lastReportAtMs !== null && nowMs - this.lastReportAtMs < PRUNE_INTERVAL_MS) return;
    this.lastReportAtMs = nowMs;
    const { quarantined, duplicates, outOfOrder } = this.counts;
    const text = `${quarantined}/${duplicates}/${outOfOrder}`;
    if (text === this.reported) return;
    this.reported = text;
    this.deps.log?.info({ counts: { ...this.counts } }, 'market recorder: counts since start');
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
