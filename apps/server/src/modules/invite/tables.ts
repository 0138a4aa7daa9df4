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
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { assets, entries } from '../ledger/tables.ts';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

/**
 * Bonus codes (spec §1 "bonus codes"). `redeemed_count` is the counter every redemption
 * locks and raises; the check constraint keeps it within `max_redemptions` even if a
 * writer forgot to look.
 */
export const bonusCodes = pgTable(
  'bonus_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    asset: text('asset')
      .notNull()
      .references(() => assets.code),
    amountMinor: numeric('amount_minor', { precision: 38, scale: 0, mode: 'bigint' }).notNull(),
    maxRedemptions: integer('max_redemptions').notNull(),
    perUserLimit: integer('per_user_limit').notNull(),
    redeemedCount: integer('redeemed_count').notNull().default(0),
    verifiedOnly: boolean('verified_only').notNull().default(false),
    /** At most one redemption per verified identity (KYC document), whatever the accounts. */
    onePerIdentity: boolean('one_per_identity').notNull().default(false),
    /**
     * approved, pending or rejected (BONUS_CODE_APPROVAL_STATUSES): a code whose total is above
     * the threshold waits for a second admin; only an approved code can be redeemed.
     */
    approvalStatus: text('approval_status').notNull().default('approved'),
    approvedBy: bigint('approved_by', { mode: 'number' }).references(() => operators.id),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Null for codes the demo seed created. */
    createdBy: bigint('created_by', { mode: 'number' }).references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    unique('bonus_codes_code_key').on(t.code),
    check('bonus_codes_code_format', sql`${t.code} ~ '^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$'`),
    check('bonus_codes_amount_positive', sql`${t.amountMinor} > 0`),
    check('bonus_codes_limits', sql`${t.maxRedemptions} >= 1 and ${t.perUserLimit} >= 1`),
    check(
      'bonus_codes_count_within_limit',
      sql`${t.redeemedCount} >= 0 and ${t.redeemedCount} <= ${t.maxRedemptions}`,
    ),
    check('bonus_codes_window', sql`${t.expiresAt} > ${t.startsAt}`),
    check(
      'bonus_codes_approval_status',
      sql`${t.approvalStatus} in ('approved', 'pending', 'rejected')`,
    ),
    // Whoever created a code never decides it (a code the demo seed made has no creator).
    check(
      'bonus_codes_second_approver',
      sql`${t.approvedBy} is null or ${t.createdBy} is null or ${t.approvedBy} <> ${t.createdBy}`,
    ),
  ],
);

/**
 * One row per redemption; `n` is the user's 1st, 2nd… use of the code. The unique key
 * (code_id, user_id, n) and `n <= per_user_limit` (checked by a trigger, migration
 * bonus_redemptions_rules) hold the per-user limit whatever the concurrency.
 */
export const bonusRedemptions = pgTable(
  'bonus_redemptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    codeId: bigint('code_id', { mode: 'number' })
      .notNull()
      .references(() => bonusCodes.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    n: integer('n').notNull(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => entries.id),
    /** The redeemer's verified identity, kept for codes limited to one per identity. */
    identityKey: text('identity_key'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('bonus_redemptions_code_identity_key')
      .on(t.codeId, t.identityKey)
      .where(sql`${t.identityKey} is not null`),
    unique('bonus_redemptions_code_user_n_key').on(t.codeId, t.userId, t.n),
    unique('bonus_redemptions_entry_key').on(t.entryId),
    check('bonus_redemptions_n_positive', sql`${t.n} >= 1`),
    index('bonus_redemptions_user_idx').on(t.userId, t.id),
  ],
);

export type BonusCodeRow = typeof bonusCodes.$inferSelect;
