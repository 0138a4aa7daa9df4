import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * Recorded prices (ARCHITECTURE §1, §6). Prices are recorded, never authored: only the
 * feed recorder inserts ticks and builds candles, and the database refuses to update a
 * tick or to delete one except through the recorder's retention prune (migrations
 * `market_ticks_append_only` and `market_retention`).
 */

/** One source's quote within a tick: `[source, price, source time − ts (ms), received − ts (ms)]`. */
export type TickComponent = [
  source: string,
  priceMinor: string,
  sourceOffsetMs: number,
  receivedOffsetMs: number,
];

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/** Each instrument's fixed price scale: a tick's integer price is in 10^-scale units of the quote. */
export const instruments = pgTable(
  'market_instruments',
  {
    symbol: text('symbol').primaryKey(),
    base: text('base').notNull(),
    quote: text('quote').notNull(),
    priceScale: integer('price_scale').notNull(),
    /** crypto | commodity | forex | metal (the contract's INSTRUMENT_KINDS); kept in step by `ensureInstruments`. */
    kind: text('kind').notNull().default('crypto'),
    /** Operators' settings (issue 7): open for orders, Home's marks, a name shown instead of the catalogues', the order of lists. Never a price. */
    tradable: boolean('tradable').notNull().default(true),
    recommended: boolean('recommended').notNull().default(false),
    popular: boolean('popular').notNull().default(false),
    displayName: text('display_name'),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [
    check('market_instruments_price_scale', sql`${t.priceScale} between 0 and 18`),
    check('market_instruments_kind', sql`${t.kind} in ('crypto', 'commodity', 'forex', 'metal')`),
  ],
);

export const ticks = pgTable(
  'market_ticks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    instrument: text('instrument')
      .notNull()
      .references(() => instruments.symbol),
    ts: timestamp('ts', { withTimezone: true, mode: 'date' }).notNull(),
    /** The price as an exact integer of 10^-priceScale units of the quote asset; never a float. */
    priceMinor: minor('price_minor').notNull(),
    /** The sources the price is the index of, joined by `+` (`simulated` is demo data). */
    source: text('source').notNull(),
    /**
     * The source quotes the price is the median of (packages/contract price-index.ts), each
     * `[source, price, source time − ts in ms, received − ts in ms]`; null when the one source
     * quoted exactly this price at exactly this second (the demo walk), to keep rows small.
     */
    components: jsonb('components').$type<TickComponent[]>(),
  },
  (t) => [
    // One tick per instrument and instant: recorders running in several processes cannot double-record.
    uniqueIndex('market_ticks_instrument_ts_key').on(t.instrument, t.ts),
    index('market_ticks_ts_idx').on(t.ts),
    check('market_ticks_price_positive', sql`${t.priceMinor} > 0`),
  ],
);

/**
 * One-minute candles, built by the recorder in the same statement that inserts the ticks
 * (so a candle never disagrees with its ticks) and kept after the raw ticks are pruned.
 * Longer intervals are aggregated from these at query time. Prices are integers at the
 * instrument's price scale; volume is an integer of 10^-8 base units (VOLUME_SCALE).
 */
export const candles1m = pgTable(
  'market_candles_1m',
  {
    instrument: text('instrument')
      .notNull()
      .references(() => instruments.symbol),
    /** The minute the candle covers, [openTime, openTime + 60 s). */
    openTime: timestamp('open_time', { withTimezone: true, mode: 'date' }).notNull(),
    openMinor: minor('open_minor').notNull(),
    highMinor: minor('high_minor').notNull(),
    lowMinor: minor('low_minor').notNull(),
    closeMinor: minor('close_minor').notNull(),
    volumeMinor: minor('volume_minor').notNull(),
    tickCount: integer('tick_count').notNull(),
    /** Times of the ticks that gave the open and the close: a late tick lands in the right place. */
    firstTs: timestamp('first_ts', { withTimezone: true, mode: 'date' }).notNull(),
    lastTs: timestamp('last_ts', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instrument, t.openTime] }),
    check(
      'market_candles_1m_minute',
      sql`${t.openTime} = date_bin('1 minute', ${t.openTime}, timestamptz '2000-01-03 00:00:00+00')`,
    ),
    check(
      'market_candles_1m_prices',
      sql`${t.lowMinor} > 0 and ${t.lowMinor} <= ${t.openMinor} and ${t.lowMinor} <= ${t.closeMinor} and ${t.highMinor} >= ${t.openMinor} and ${t.highMinor} >= ${t.closeMinor}`,
    ),
    check(
      'market_candles_1m_counts',
      sql`${t.volumeMinor} >= 0 and ${t.tickCount} > 0 and ${t.firstTs} <= ${t.lastTs}`,
    ),
  ],
);

/** A user's favourite instruments (the Transaction screen's favourites tab, the Detail screen's star). */
export const favorites = pgTable(
  'market_favorites',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    instrument: text('instrument')
      .notNull()
      .references(() => instruments.symbol),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.instrument] })],
);

/**
 * The demo walk's key (32 random bytes, hex): made once from a secure random source at first
 * start and kept, so a restart continues the same walk. Nothing the API serves reveals it.
 */
export const demoWalkKeys = pgTable(
  'market_demo_walk_key',
  {
    id: integer('id').primaryKey().default(1),
    keyHex: text('key_hex').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check('market_demo_walk_key_one', sql`${t.id} = 1`),
    check('market_demo_walk_key_hex', sql`${t.keyHex} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * Source quotes kept out of the index: further than the band from the other sources'
 * median (or, alone, from the source's own last minute). Recorded with the reference they
 * were measured against, for operators and the logs; never a settlement price.
 */
export const quarantinedQuotes = pgTable(
  'market_quarantined_quotes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    instrument: text('instrument')
      .notNull()
      .references(() => instruments.symbol),
    source: text('source').notNull(),
    priceMinor: minor('price_minor').notNull(),
    referenceMinor: minor('reference_minor').notNull(),
    sourceTime: timestamp('source_time', { withTimezone: true, mode: 'date' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('market_quarantined_quotes_time_idx').on(t.receivedAt)],
);

/**
 * Updates the sources signed, kept with the ticks they priced (Pyth's: the accumulator update
 * cut to the feed, hex), so a user can check a close tick's price against the source's keys.
 * About 1.3 KB per tick and source: kept an hour, and for good when an order refers to the tick.
 */
export const tickProofs = pgTable(
  'market_tick_proofs',
  {
    tickId: bigint('tick_id', { mode: 'number' }).notNull(),
    source: text('source').notNull(),
    feedId: text('feed_id').notNull(),
    update: text('update').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tickId, t.source] }),
    index('market_tick_proofs_recorded_at_idx').on(t.recordedAt),
  ],
);

/**
 * Futures months Pyth listed after the built-in list (`pyth/feed-ids.ts`), as Hermes' feed list
 * showed them: the symbol, its feed id and the last trading day its description states
 * (`pyth/contracts.ts`). Written by whichever process read the list; every process merges them
 * into the built-in months, so a commodity rolls on to a month listed after this release.
 */
export const listedContracts = pgTable(
  'market_listed_contracts',
  {
    symbol: text('symbol').primaryKey(),
    instrument: text('instrument')
      .notNull()
      .references(() => instruments.symbol),
    feedId: text('feed_id').notNull(),
    lastTradeDate: date('last_trade_date', { mode: 'string' }).notNull(),
    listedAt: timestamp('listed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [check('market_listed_contracts_feed_id', sql`${t.feedId} ~ '^[0-9a-f]{64}$'`)],
);
