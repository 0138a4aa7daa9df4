import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * Points events: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), the balance
 * is their sum. A check-in is one row per user per UTC day, which the database enforces.
 */
export const pointsEvents = pgTable(
  'points_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** 'checkin' | 'streak_bonus'; later kinds add to the list in the contract. */
    kind: text('kind').notNull(),
    amount: integer('amount').notNull(),
    /** The UTC day checked in, for check-ins and their streak bonus. */
    day: date('day', { mode: 'string' }),
    /** The consecutive days a check-in made (check-ins only). */
    streak: integer('streak'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('points_events_user_idx').on(t.userId, t.id),
    // One check-in per user per UTC day, however many requests race for it.
    uniqueIndex('points_events_user_checkin_day_key')
      .on(t.userId, t.day)
      .where(sql`${t.kind} = 'checkin'`),
    check(
      'points_events_checkin_shape',
      sql`${t.kind} <> 'checkin' or (${t.day} is not null and ${t.streak} >= 1)`,
    ),
  ],
);

export type PointsEventRow = typeof pointsEvents.$inferSelect;
