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
import { operators } from '../operator/tables.ts';

/** Uids start at 10000001 so every uid shown to a user has eight digits. */
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity({ startWith: 10_000_001 }),
    email: text('email'),
    phone: text('phone'),
    emailVerified: boolean('email_verified').notNull().default(false),
    phoneVerified: boolean('phone_verified').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    nickname: text('nickname').notNull(),
    avatar: text('avatar'),
    points: integer('points').notNull().default(0),
    inviteCode: text('invite_code').notNull(),
    inviterId: bigint('inviter_id', { mode: 'number' }),
    /** KYC passed. */
    verified: boolean('verified').notNull().default(false),
    language: text('language').notNull().default('en'),
    frozenAt: timestamp('frozen_at', { withTimezone: true, mode: 'date' }),
    frozenReason: text('frozen_reason'),
    /** When an address this account never proved went to the person who proved it (decision 0026). */
    addressClaimedAt: timestamp('address_claimed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_phone_key').on(t.phone),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    // The inviter's list of invitees, newest first.
    index('users_inviter_idx').on(t.inviterId, t.id),
    // An account whose only address was claimed by its prover keeps its history, frozen, with none.
    check(
      'users_has_contact',
      sql`${t.email} is not null or ${t.phone} is not null or ${t.addressClaimedAt} is not null`,
    ),
    check('users_points_nonnegative', sql`${t.points} >= 0`),
  ],
);

export type UserRow = typeof users.$inferSelect;

/**
 * A manual adjustment (issue 7): one admin asks, a different admin decides. Approval posts
 * exactly one `system` ledger entry (referenced here) between the user's account and
 * house:adjustments, with the reason as its memo, which the user sees in their funds detail.
 * The row never holds a balance; the ledger does.
 */
export const balanceAdjustments = pgTable(
  'balance_adjustments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    wallet: text('wallet').notNull(),
    asset: text('asset').notNull(),
    /** Signed minor units: positive credits the user, negative debits them. */
    amountMinor: numeric('amount_minor', { precision: 38, scale: 0, mode: 'bigint' }).notNull(),
    /** Shown to the user (the ledger entry's memo). */
    reason: text('reason').notNull(),
    /** pending, approved or rejected (ADJUSTMENT_STATUSES). */
    status: text('status').notNull().default('pending'),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
    entryId: bigint('entry_id', { mode: 'number' }),
  },
  (t) => [
    index('balance_adjustments_status_idx').on(t.status, t.id),
    index('balance_adjustments_user_idx').on(t.userId, t.id),
    check('balance_adjustments_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('balance_adjustments_nonzero', sql`${t.amountMinor} <> 0`),
    // Four eyes: whoever asked may not decide, whatever the code above the database does.
    check(
      'balance_adjustments_second_approver',
      sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`,
    ),
    check(
      'balance_adjustments_decided',
      sql`(${t.status} = 'pending') = (${t.decidedBy} is null and ${t.decidedAt} is null)`,
    ),
    check(
      'balance_adjustments_entry',
      sql`(${t.status} = 'approved') = (${t.entryId} is not null)`,
    ),
    check(
      'balance_adjustments_rejected_reason',
      sql`${t.status} <> 'rejected' or ${t.decisionReason} is not null`,
    ),
  ],
);
