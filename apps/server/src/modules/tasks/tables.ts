import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * A claimed rewards-centre task (issue 32). The unique (user_id, task) key is what makes a claim
 * happen once: of any number of racing claims exactly one inserts, and it pays in the same
 * transaction; the others find the row and pay nothing.
 */
export const taskClaims = pgTable(
  'task_claims',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    task: text('task').notNull(),
    /** The points event that paid a points reward. */
    pointsEventId: bigint('points_event_id', { mode: 'number' }),
    /** The ledger entry that paid a money reward (from the reward budget). */
    entryId: bigint('entry_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('task_claims_user_task_key').on(t.userId, t.task),
    check('task_claims_paid_once', sql`(${t.pointsEventId} is null) <> (${t.entryId} is null)`),
  ],
);
