import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { ticks } from '../market/tables.ts';
import { users } from '../user/tables.ts';

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/**
 * A conversion quote: the rate of one recorded tick, the fee and what the user receives,
 * valid for ten seconds, executed at most once (then `executedAt` and `entryId` are set, in
 * the transaction that posts the ledger entry `conversion:<id>`).
 */
export const conversionQuotes = pgTable(
  'conversion_quotes',
  {
    /** 22 random base64url characters. */
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    fromAsset: text('from_asset').notNull(),
    toAsset: text('to_asset').notNull(),
    /** What the user pays, in `from` minor units. */
    amountMinor: minor('amount_minor').notNull(),
    /** The USDT that crosses the conversion desk: gross proceeds of a sale, or a purchase's amount net of the fee. */
    usdtLegMinor: minor('usdt_leg_minor').notNull(),
    feeMinor: minor('fee_minor').notNull(),
    feeBps: integer('fee_bps').notNull(),
    /** What the user receives, in `to` minor units. */
    receiveMinor: minor('receive_minor').notNull(),
    /** The tick the rate comes from, and its price (ticks never change, so this copy cannot drift). */
    tickId: bigint('tick_id', { mode: 'number' })
      .notNull()
      .references(() => ticks.id),
    priceMinor: minor('price_minor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    executedAt: timestamp('executed_at', { withTimezone: true, mode: 'date' }),
    entryId: bigint('entry_id', { mode: 'number' }),
  },
  (t) => [
    index('conversion_quotes_user_idx').on(t.userId, t.createdAt),
    // Spec §5: a coin and USDT, never two coins.
    check('conversion_quotes_via_usdt', sql`(${t.fromAsset} = 'USDT') <> (${t.toAsset} = 'USDT')`),
    check(
      'conversion_quotes_amounts',
      sql`${t.amountMinor} > 0 and ${t.receiveMinor} > 0 and ${t.usdtLegMinor} > 0 and ${t.feeMinor} >= 0`,
    ),
    check('conversion_quotes_executed', sql`(${t.executedAt} is null) = (${t.entryId} is null)`),
  ],
);
