import { sql } from 'drizzle-orm';
import { bigint, check, index, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bankCards } from '../bank-card/tables.ts';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/**
 * Withdrawal requests (spec §3 Withdrawal). While `under_review` or `processing` the
 * amount + fee are locked in the user's spot account (a registered ledger obligation);
 * the ledger entries `withdrawal:<id>:request|refund|complete` move the money.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    asset: text('asset').notNull(),
    network: text('network'),
    address: text('address'),
    cardId: bigint('card_id', { mode: 'number' }).references(() => bankCards.id),
    /** What arrives, in the asset's minor units. */
    amountMinor: minor('amount_minor').notNull(),
    feeMinor: minor('fee_minor').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    txid: text('txid'),
    /** Who reviewed it last: the approver who moved it to processing, or the operator who rejected it. */
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => operators.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    /**
     * Above the asset's second-approval threshold an approval is recorded here and the
     * withdrawal stays under review until a different operator approves it (`second_approved_by`).
     */
    firstApprovedBy: bigint('first_approved_by', { mode: 'number' }).references(() => operators.id),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true, mode: 'date' }),
    secondApprovedBy: bigint('second_approved_by', { mode: 'number' }).references(
      () => operators.id,
    ),
    secondApprovedAt: timestamp('second_approved_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId, t.id),
    index('withdrawals_status_idx').on(t.status, t.id),
    check(
      'withdrawals_status',
      sql`${t.status} in ('under_review', 'processing', 'success', 'review_failed', 'failed')`,
    ),
    check('withdrawals_kind', sql`${t.kind} in ('crypto', 'card')`),
    check('withdrawals_amounts', sql`${t.amountMinor} > 0 and ${t.feeMinor} >= 0`),
    check(
      'withdrawals_destination',
      sql`(${t.kind} = 'crypto' and ${t.network} is not null and ${t.address} is not null and ${t.cardId} is null)
          or (${t.kind} = 'card' and ${t.cardId} is not null and ${t.network} is null and ${t.address} is null)`,
    ),
    check('withdrawals_success_has_txid', sql`${t.status} <> 'success' or ${t.txid} is not null`),
    // Four eyes: the second approval is someone else's, and only ever follows a first one.
    check(
      'withdrawals_second_approver_differs',
      sql`${t.secondApprovedBy} is null or (${t.firstApprovedBy} is not null and ${t.secondApprovedBy} <> ${t.firstApprovedBy})`,
    ),
    check(
      'withdrawals_refusal_has_reason',
      sql`${t.status} not in ('review_failed', 'failed') or ${t.reason} is not null`,
    ),
  ],
);

export type WithdrawalRow = typeof withdrawals.$inferSelect;
