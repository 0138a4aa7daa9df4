import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

/** Texts in several languages keyed by language code; `en` is always there. Plain text, never HTML. */
export type LocalizedText = { en: string } & Partial<Record<string, string>>;

const money = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Miners for rent (spec /Mining), configured by operators. */
export const miningProducts = pgTable(
  'mining_products',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull().unique('mining_products_slug_key'),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    output: text('output').notNull(),
    hashrate: text('hashrate').notNull(),
    power: text('power').notNull(),
    periodDays: integer('period_days').notNull(),
    unitPriceMinor: money('unit_price_minor').notNull(),
    minInvestmentMinor: money('min_investment_minor').notNull(),
    maxQuantity: integer('max_quantity').notNull(),
    dailyRatePpm: integer('daily_rate_ppm').notNull(),
    enabled: boolean('enabled').notNull(),
    sort: integer('sort').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    check('mining_products_name_en', sql`jsonb_typeof(${t.name} -> 'en') = 'string'`),
    check('mining_products_description_en', sql`jsonb_typeof(${t.description} -> 'en') = 'string'`),
    check(
      'mining_products_terms',
      sql`${t.periodDays} > 0 and ${t.unitPriceMinor} > 0 and ${t.minInvestmentMinor} >= ${t.unitPriceMinor} and ${t.maxQuantity} > 0 and ${t.dailyRatePpm} > 0`,
    ),
  ],
);

/**
 * One rental: the product's terms as they were when rented (a later edit of the product
 * changes nothing here), its status (spec §4: 0 under review, 1 active, 2 completed,
 * 3 rejected) and what has been paid out so far.
 */
export const miningRentals = pgTable(
  'mining_rentals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => miningProducts.id),
    status: smallint('status').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceMinor: money('unit_price_minor').notNull(),
    amountMinor: money('amount_minor').notNull(),
    dailyRatePpm: integer('daily_rate_ppm').notNull(),
    dailyYieldMinor: money('daily_yield_minor').notNull(),
    periodDays: integer('period_days').notNull(),
    /** The length of a day this rental counts in (a day, or shorter in demo mode). */
    dayMs: bigint('day_ms', { mode: 'number' }).notNull(),
    paidDays: integer('paid_days').notNull().default(0),
    paidOutMinor: money('paid_out_minor')
      .notNull()
      .default(sql`0`),
    principalReturned: boolean('principal_returned').notNull().default(false),
    reason: text('reason'),
    createdAt: at('created_at').notNull(),
    decidedAt: at('decided_at'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    startedAt: at('started_at'),
    endsAt: at('ends_at'),
    /** When the next day is due; null unless active. The payout worker claims on it. */
    nextPayoutAt: at('next_payout_at'),
    completedAt: at('completed_at'),
  },
  (t) => [
    check('mining_rentals_status', sql`${t.status} in (0, 1, 2, 3)`),
    check(
      'mining_rentals_amount',
      sql`${t.quantity} > 0 and ${t.amountMinor} = ${t.unitPriceMinor} * ${t.quantity} and ${t.amountMinor} > 0`,
    ),
    check(
      'mining_rentals_paid',
      sql`${t.paidDays} >= 0 and ${t.paidDays} <= ${t.periodDays} and ${t.paidOutMinor} = ${t.dailyYieldMinor} * ${t.paidDays}`,
    ),
    check('mining_rentals_active', sql`(${t.status} = 1) = (${t.nextPayoutAt} is not null)`),
    check(
      'mining_rentals_completed',
      sql`(${t.status} = 2) = ${t.principalReturned} and (${t.status} <> 2 or ${t.paidDays} = ${t.periodDays})`,
    ),
    index('mining_rentals_user_idx').on(t.userId, t.id),
    index('mining_rentals_due_idx')
      .on(t.nextPayoutAt)
      .where(sql`${t.status} = 1`),
    index('mining_rentals_review_idx')
      .on(t.id)
      .where(sql`${t.status} = 0`),
  ],
);

/**
 * One row per paid day. The primary key (rental_id, day) is what makes "each day paid
 * exactly once" hold whatever the workers do; the ledger's unique reference
 * `mining:<rental>:day:<n>` stands behind it.
 */
export const miningPayouts = pgTable(
  'mining_payouts',
  {
    rentalId: bigint('rental_id', { mode: 'number' })
      .notNull()
      .references(() => miningRentals.id),
    day: integer('day').notNull(),
    amountMinor: money('amount_minor').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    dueAt: at('due_at').notNull(),
    paidAt: at('paid_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mining_payouts_rental_day_key', columns: [t.rentalId, t.day] }),
    check('mining_payouts_day', sql`${t.day} > 0`),
    unique('mining_payouts_entry_key').on(t.entryId),
  ],
);

export type MiningProductRow = typeof miningProducts.$inferSelect;
export type MiningRentalRow = typeof miningRentals.$inferSelect;
