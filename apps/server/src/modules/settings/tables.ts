import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { operators } from '../operator/tables.ts';

/**
 * Install-wide product settings (issue 30), one row per setting that differs from its default.
 * Every node reads them here when it uses them, so no node applies a value the others do not.
 * `set_by` is the approving admin's name, or `environment` for a value seeded at first start.
 */
export const sharedSettings = pgTable('shared_settings', {
  name: text('name').primaryKey(),
  /** The value as its environment variable would spell it (`20`, `USDT:10000,BTC:0.2,ETH:3`). */
  value: text('value').notNull(),
  setBy: text('set_by').notNull(),
  setAt: timestamp('set_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * A change of a shared setting: one admin requests a value, a different admin approves or
 * rejects it (as reward budgets and adjustments). At most one change a setting waits at once.
 */
export const sharedSettingChanges = pgTable(
  'shared_setting_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    /** The value in effect when the change was requested. */
    previous: text('previous').notNull(),
    reason: text('reason').notNull(),
    /** pending, approved or rejected. */
    status: text('status').notNull().default('pending'),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('shared_setting_changes_one_pending')
      .on(t.name)
      .where(sql`${t.status} = 'pending'`),
    check('shared_setting_changes_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check(
      'shared_setting_changes_two_people',
      sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`,
    ),
  ],
);
export type SharedSettingChangeRow = typeof sharedSettingChanges.$inferSelect;
