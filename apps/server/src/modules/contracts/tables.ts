import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ticks } from '../market/tables.ts';
import { users } from '../user/tables.ts';

/**
 * Instant contracts (ARCHITECTURE §6). Outcomes are computed from recorded ticks, never
 * chosen; the database holds the code to that (migration `contracts_rules`): an order is
 * never deleted, its terms never change, it settles once, and a settlement is refused
 * unless its close tick, outcome and payout follow the published rule.
 */

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/**
 * A period as configured (operators change them, issue 7). Rates are integers in parts per
 * million (0.85 = 850 000) so no float ever prices a payout.
 */
export const contractPeriods = pgTable(
  'contract_periods',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    seconds: integer('seconds').notNull(),
    payoutRatePpm: integer('payout_rate_ppm').notNull(),
    feeRatePpm: integer('fee_rate_ppm').notNull(),
    minStakeMinor: minor('min_stake_minor').notNull(),
    maxStakeMinor: minor('max_stake_minor').notNull(),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [
    check('contract_periods_seconds', sql`${t.seconds} > 0 and ${t.seconds} <= 86400`),
    check(
      'contract_periods_rates',
      sql`${t.payoutRatePpm} > 0 and ${t.payoutRatePpm} <= 10000000 and ${t.feeRatePpm} >= 0 and ${t.feeRatePpm} < 1000000`,
    ),
    check(
      'contract_periods_stakes',
      sql`${t.minStakeMinor} > 0 and ${t.maxStakeMinor} >= ${t.minStakeMinor}`,
    ),
  ],
);

export const contractOrders = pgTable(
  'contract_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** 22 random base64url characters: the public replay link names the order by this. */
    publicId: text('public_id').notNull(),
    /** No foreign key (0040): the guard checks the user exists, without locking the user's row for every order. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** No foreign key of its own: the open tick's instrument must be this one (trigger), and ticks reference instruments. */
    instrument: text('instrument').notNull(),
    direction: text('direction').notNull(),
    /** The period's terms, copied at placement: a later change of the period never touches an order. */
    periodSeconds: integer('period_seconds').notNull(),
    payoutRatePpm: integer('payout_rate_ppm').notNull(),
    feeRatePpm: integer('fee_rate_ppm').notNull(),
    /** USDT minor units. */
    stakeMinor: minor('stake_minor').notNull(),
    feeMinor: minor('fee_minor').notNull(),
    /**
     * The latest recorded tick at acceptance, and its price (ticks never change, so the copy cannot drift).
     * No foreign key (0040): the guard checks the tick at insert, and a trigger on market_ticks keeps it.
     */
    openTickId: bigint('open_tick_id', { mode: 'number' }).notNull(),
    openPriceMinor: minor('open_price_minor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    deliverAt: timestamp('deliver_at', { withTimezone: true, mode: 'date' }).notNull(),
    state: text('state').notNull().default('open'),
    outcome: text('outcome'),
    /** Null on a void: no tick in the 5 s before delivery. */
    closeTickId: bigint('close_tick_id', { mode: 'number' }).references(() => ticks.id),
    closePriceMinor: minor('close_price_minor'),
    /** What settlement credited to the available balance (USDT minor units). */
    payoutMinor: minor('payout_minor'),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('contract_orders_public_id_key').on(t.publicId),
    index('contract_orders_user_idx').on(t.userId, t.id),
    // What the settlement worker claims: open orders by delivery time.
    index('contract_orders_due_idx')
      .on(t.deliverAt)
      .where(sql`${t.state} = 'open'`),
    // Open-order cap and exposure at placement.
    index('contract_orders_user_open_idx')
      .on(t.userId)
      .where(sql`${t.state} = 'open'`),
    // Today's realised losses (daily loss limit).
    index('contract_orders_user_settled_idx')
      .on(t.userId, t.settledAt)
      .where(sql`${t.state} = 'settled'`),
    check('contract_orders_direction', sql`${t.direction} in ('up', 'down')`),
    check('contract_orders_state', sql`${t.state} in ('open', 'settled')`),
    check(
      'contract_orders_terms',
      sql`${t.stakeMinor} > 0 and ${t.feeMinor} >= 0 and ${t.openPriceMinor} > 0 and ${t.periodSeconds} > 0 and ${t.payoutRatePpm} > 0 and ${t.feeRatePpm} >= 0`,
    ),
    check(
      'contract_orders_delivery',
      sql`extract(epoch from ${t.deliverAt} - ${t.createdAt}) = ${t.periodSeconds}`,
    ),
    check('contract_orders_public_id', sql`${t.publicId} ~ '^[A-Za-z0-9_-]{22}$'`),
    // Open: nothing of a settlement yet. Settled: an outcome, a payout and a time, at or after delivery.
    check(
      'contract_orders_settlement_fields',
      sql`(${t.state} = 'open' and ${t.outcome} is null and ${t.payoutMinor} is null and ${t.settledAt} is null and ${t.closeTickId} is null and ${t.closePriceMinor} is null)
          or (${t.state} = 'settled' and ${t.outcome} is not null and ${t.payoutMinor} is not null and ${t.settledAt} is not null and ${t.settledAt} >= ${t.deliverAt}
              and (${t.closeTickId} is null) = (${t.outcome} = 'void') and (${t.closeTickId} is null) = (${t.closePriceMinor} is null))`,
    ),
    // The published rule, in the database: the outcome follows from the two recorded prices.
    check(
      'contract_orders_outcome_rule',
      sql`${t.outcome} is null or ${t.outcome} = case
            when ${t.closePriceMinor} is null then 'void'
            when ${t.closePriceMinor} = ${t.openPriceMinor} then 'tie'
            when (${t.closePriceMinor} > ${t.openPriceMinor}) = (${t.direction} = 'up') then 'win'
            else 'loss' end`,
    ),
    // And the payout follows from the outcome: stake × (1 + rate) rounded down, 0, the stake, or stake + fee.
    check(
      'contract_orders_payout_rule',
      sql`${t.payoutMinor} is null or ${t.payoutMinor} = case ${t.outcome}
            when 'win' then ${t.stakeMinor} + div(${t.stakeMinor} * ${t.payoutRatePpm}, 1000000)
            when 'loss' then 0
            when 'tie' then ${t.stakeMinor}
            else ${t.stakeMinor} + ${t.feeMinor} end`,
    ),
  ],
);

export type ContractOrderRow = typeof contractOrders.$inferSelect;

/** A user's own limits: the daily loss limit in USDT minor units (null: none). */
export const contractSettings = pgTable(
  'contract_settings',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    dailyLossLimitMinor: minor('daily_loss_limit_minor'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check(
      'contract_settings_limit',
      sql`${t.dailyLossLimitMinor} is null or ${t.dailyLossLimitMinor} > 0`,
    ),
  ],
);
