import { sql } from 'drizzle-orm';
import { bigint, check, index, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { assets } from '../ledger/tables.ts';
import { operators } from '../operator/tables.ts';

/**
 * What the house may still give away, per asset (issue 29). `approved_minor` moves only when a
 * second admin approves a budget request; `granted_minor` only when a reward is paid. Every
 * reward raises `granted_minor` with a conditional update, so the check constraint below holds
 * however many redemptions race, and the ledger check compares both with `house:rewards:*`.
 */
export const rewardBudgets = pgTable(
  'reward_budgets',
  {
    asset: text('asset')
      .primaryKey()
      .references(() => assets.code),
    approvedMinor: numeric('approved_minor', { precision: 38, scale: 0, mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    grantedMinor: numeric('granted_minor', { precision: 38, scale: 0, mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check(
      'reward_budgets_within',
      sql`${t.grantedMinor} >= 0 and ${t.grantedMinor} <= ${t.approvedMinor}`,
    ),
  ],
);

/**
 * A change of an asset's reward budget: one admin asks for a signed amount, a different admin
 * approves or rejects it (as manual adjustments). The demo seed writes one approved row with
 * neither requester nor decider; every other row names both people.
 */
export const rewardBudgetRequests = pgTable(
  'reward_budget_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    asset: text('asset')
      .notNull()
      .references(() => assets.code),
    /** Signed minor units: positive raises the budget, negative lowers it. */
    deltaMinor: numeric('delta_minor', { precision: 38, scale: 0, mode: 'bigint' }).notNull(),
    reason: text('reason').notNull(),
    /** pending, approved or rejected (REWARD_BUDGET_STATUSES). */
    status: text('status').notNull().default('pending'),
    /** Null only for the demo seed's budget. */
    requestedBy: bigint('requested_by', { mode: 'number' }).references(() => operators.id),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    index('reward_budget_requests_status_idx').on(t.status, t.id),
    check('reward_budget_requests_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('reward_budget_requests_nonzero', sql`${t.deltaMinor} <> 0`),
    // Four eyes, whatever the code above the database does.
    check(
      'reward_budget_requests_second_approver',
      sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`,
    ),
    check(
      'reward_budget_requests_decided',
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`,
    ),
    // Either two operators (asker and, once decided, decider) or the demo seed (neither, approved).
    check(
      'reward_budget_requests_people',
      sql`case when ${t.requestedBy} is null then ${t.status} = 'approved' and ${t.decidedBy} is null else ${t.status} = 'pending' or ${t.decidedBy} is not null end`,
    ),
    check(
      'reward_budget_requests_rejected_reason',
      sql`${t.status} <> 'rejected' or ${t.decisionReason} is not null`,
    ),
  ],
);

export type RewardBudgetRequestRow = typeof rewardBudgetRequests.$inferSelect;
