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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { files } from '#platform/tables.ts';
import type { LocalizedText } from '../mining/tables.ts';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

const money = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Loan products (spec /Loan), configured by operators. */
export const loanProducts = pgTable(
  'loan_products',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull().unique('loan_products_slug_key'),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    institution: jsonb('institution').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    minAmountMinor: money('min_amount_minor').notNull(),
    maxAmountMinor: money('max_amount_minor').notNull(),
    /** Repayment periods offered, in days. */
    periods: integer('periods').array().notNull(),
    dailyRatePpm: integer('daily_rate_ppm').notNull(),
    overdueRatePpm: integer('overdue_rate_ppm').notNull(),
    method: text('method').notNull(),
    enabled: boolean('enabled').notNull(),
    sort: integer('sort').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    check('loan_products_name_en', sql`jsonb_typeof(${t.name} -> 'en') = 'string'`),
    check(
      'loan_products_terms',
      sql`${t.minAmountMinor} > 0 and ${t.maxAmountMinor} >= ${t.minAmountMinor} and ${t.dailyRatePpm} > 0 and ${t.overdueRatePpm} > 0 and cardinality(${t.periods}) > 0`,
    ),
    check('loan_products_method', sql`${t.method} in ('interest_first')`),
  ],
);

/**
 * One loan: the product's terms as they were at application, its status (LOAN_STATUS:
 * 0 under review, 1 pending disbursement, 2 disbursed, 3 repaid, 4 rejected, 5 overdue),
 * and the overdue days and interest accrued so far.
 */
export const loans = pgTable(
  'loans',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => loanProducts.id),
    status: smallint('status').notNull(),
    amountMinor: money('amount_minor').notNull(),
    periodDays: integer('period_days').notNull(),
    dailyRatePpm: integer('daily_rate_ppm').notNull(),
    overdueRatePpm: integer('overdue_rate_ppm').notNull(),
    method: text('method').notNull(),
    frontFileId: bigint('front_file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id),
    backFileId: bigint('back_file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id),
    holdingFileId: bigint('holding_file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id),
    dayMs: bigint('day_ms', { mode: 'number' }).notNull(),
    overdueDays: integer('overdue_days').notNull().default(0),
    overdueInterestMinor: money('overdue_interest_minor')
      .notNull()
      .default(sql`0`),
    reason: text('reason'),
    createdAt: at('created_at').notNull(),
    decidedAt: at('decided_at'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    disbursedAt: at('disbursed_at'),
    disbursedBy: bigint('disbursed_by', { mode: 'number' }).references(() => operators.id),
    dueAt: at('due_at'),
    /** When the accrual job next has work on this loan (maturity, then each overdue day); null unless disbursed or overdue. */
    nextAccrualAt: at('next_accrual_at'),
    repaidAt: at('repaid_at'),
    repaidMinor: money('repaid_minor'),
  },
  (t) => [
    check('loans_status', sql`${t.status} in (0, 1, 2, 3, 4, 5)`),
    check('loans_amount', sql`${t.amountMinor} > 0 and ${t.periodDays} > 0`),
    check('loans_reason', sql`(${t.status} = 4) = (${t.reason} is not null)`),
    check(
      'loans_disbursed',
      sql`(${t.status} in (2, 3, 5)) = (${t.disbursedAt} is not null and ${t.dueAt} is not null)`,
    ),
    check('loans_accruing', sql`(${t.status} in (2, 5)) = (${t.nextAccrualAt} is not null)`),
    check(
      'loans_repaid',
      sql`(${t.status} = 3) = (${t.repaidAt} is not null and ${t.repaidMinor} is not null)`,
    ),
    check(
      'loans_overdue',
      sql`${t.overdueDays} >= 0 and ${t.overdueInterestMinor} >= 0 and (${t.overdueDays} = 0 or ${t.status} in (3, 5))`,
    ),
    // "Current loan unsettled, retry after settlement": the database holds one per user.
    uniqueIndex('loans_one_unsettled')
      .on(t.userId)
      .where(sql`${t.status} in (0, 1, 2, 5)`),
    index('loans_user_idx').on(t.userId, t.id),
    index('loans_due_idx')
      .on(t.nextAccrualAt)
      .where(sql`${t.status} in (2, 5)`),
    index('loans_queue_idx')
      .on(t.id)
      .where(sql`${t.status} in (0, 1)`),
  ],
);

/**
 * One row per accrued overdue day. The primary key (loan_id, day) is what makes "each day
 * accrues once" hold whatever the workers do.
 */
export const loanOverdueDays = pgTable(
  'loan_overdue_days',
  {
    loanId: bigint('loan_id', { mode: 'number' })
      .notNull()
      .references(() => loans.id),
    day: integer('day').notNull(),
    amountMinor: money('amount_minor').notNull(),
    accruedAt: at('accrued_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'loan_overdue_days_loan_day_key', columns: [t.loanId, t.day] }),
    check('loan_overdue_days_day', sql`${t.day} > 0 and ${t.amountMinor} > 0`),
  ],
);

export type LoanProductRow = typeof loanProducts.$inferSelect;
export type LoanRow = typeof loans.$inferSelect;
