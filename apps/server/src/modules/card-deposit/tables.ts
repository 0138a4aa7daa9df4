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
import { files } from '#platform/tables.ts';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/**
 * Bank-card deposits reported by users. No money moves when a row is written: an operator
 * confirms the payment (one ledger entry, referenced `card_deposit:<id>:credit`, recorded
 * in `entry_id`) or rejects it with a reason.
 */
export const cardDeposits = pgTable(
  'card_deposits',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** pending, paid or rejected (CARD_DEPOSIT_STATUSES). */
    status: text('status').notNull(),
    asset: text('asset').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    feeMinor: minor('fee_minor').notNull(),
    actualMinor: minor('actual_minor').notNull(),
    /** The fee rule when the user reported the payment: what they were shown is what they get. */
    feeBps: integer('fee_bps').notNull(),
    payeeBank: text('payee_bank').notNull(),
    payeeCardNumber: text('payee_card_number').notNull(),
    payeeName: text('payee_name').notNull(),
    payeePhone: text('payee_phone').notNull(),
    screenshotFileId: bigint('screenshot_file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id),
    reason: text('reason'),
    /** The ledger entry that credited the user (paid only). */
    entryId: bigint('entry_id', { mode: 'number' }),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    // One payment, one proof: a screenshot cannot back two deposits.
    uniqueIndex('card_deposits_screenshot_key').on(t.screenshotFileId),
    index('card_deposits_user_idx').on(t.userId, t.id),
    index('card_deposits_queue_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending'`),
    check('card_deposits_status', sql`${t.status} in ('pending', 'paid', 'rejected')`),
    check(
      'card_deposits_amounts',
      sql`${t.feeMinor} >= 0 and ${t.actualMinor} > 0 and ${t.amountMinor} = ${t.feeMinor} + ${t.actualMinor}`,
    ),
    check('card_deposits_fee_bps', sql`${t.feeBps} between 0 and 10000`),
    check('card_deposits_reason', sql`(${t.status} = 'rejected') = (${t.reason} is not null)`),
    check('card_deposits_decided', sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
    check('card_deposits_entry', sql`(${t.status} = 'paid') = (${t.entryId} is not null)`),
  ],
);

export type CardDepositRow = typeof cardDeposits.$inferSelect;

/**
 * Where users pay card deposits, kept by operators (issue 7). The first enabled account by
 * sort is the one shown; a deposit copies it, so a later edit never changes what a user
 * was told. With no rows at all the configured (CARD_PAYEE_*) or demo payee applies.
 */
export const cardDepositPayees = pgTable(
  'card_deposit_payees',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bankName: text('bank_name').notNull(),
    accountName: text('account_name').notNull(),
    accountNumber: text('account_number').notNull(),
    phone: text('phone').notNull().default(''),
    enabled: boolean('enabled').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('card_deposit_payees_enabled_idx')
      .on(t.sort, t.id)
      .where(sql`${t.enabled}`),
  ],
);

export type CardDepositPayeeRow = typeof cardDepositPayees.$inferSelect;
