import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * Credit events: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). The score is
 * the base plus their points (packages/contract credit.ts); `points` is the rule's value
 * when the event was recorded, so a later change to the rule table does not rewrite history.
 */
export const creditEvents = pgTable(
  'credit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** CREDIT_EVENT_KINDS: 'kyc_approved'; loan kinds once loans exist. */
    kind: text('kind').notNull(),
    points: integer('points').notNull(),
    /** What caused it, e.g. `kyc_submission:12` or `loan:7`: one event per cause. */
    ref: text('ref').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('credit_events_user_idx').on(t.userId, t.id),
    uniqueIndex('credit_events_user_kind_ref_key').on(t.userId, t.kind, t.ref),
    // Identity is verified once: however many approvals race, one event counts.
    uniqueIndex('credit_events_user_kyc_key')
      .on(t.userId)
      .where(sql`${t.kind} = 'kyc_approved'`),
    check(
      'credit_events_kind',
      sql`${t.kind} in ('kyc_approved', 'loan_repaid_on_time', 'loan_overdue')`,
    ),
  ],
);

export type CreditEventRow = typeof creditEvents.$inferSelect;
