import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Recorded prices (ARCHITECTURE §1, §6). Prices are recorded, never authored: only the
 * feed recorder inserts ticks, and the database refuses to update or delete one
 * (migration `market_ticks_append_only`).
 */

/** Each instrument's fixed price scale: a tick's integer price is in 10^-scale USDT. */
export const instruments = pgTable(
  'market_instruments',
  {
    symbol: text('symbol').primaryKey(),
    base: text('base').notNull(),
    quote: text('quote').notNull(),
    priceScale: integer('price_scale').notNull(),
  },
  (t) => [check('market_instruments_price_scale', sql`${t.priceScale} between 0 and 18`)],
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
    priceMinor: numeric('price_minor', { precision: 38, scale: 0, mode: 'bigint' }).notNull(),
    /** The feed adapter that produced it (`simulated` is demo data). */
    source: text('source').notNull(),
  },
  (t) => [
    // One tick per instrument and instant: recorders running in several processes cannot double-record.
    uniqueIndex('market_ticks_instrument_ts_key').on(t.instrument, t.ts),
    index('market_ticks_ts_idx').on(t.ts),
    check('market_ticks_price_positive', sql`${t.priceMinor} > 0`),
  ],
);
