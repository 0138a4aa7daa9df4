import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * A user's withdrawal and trading passwords: one row per kind, with its own argon2id hash
 * and its own wrong-attempt counter. A row without a hash exists only to count wrong login
 * passwords offered to set one.
 */
export const moneyPasswords = pgTable(
  'money_passwords',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    passwordHash: text('password_hash'),
    /** Wrong attempts in a row since the last success or lock. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'money_passwords_pkey', columns: [t.userId, t.kind] }),
    check('money_passwords_kind', sql`${t.kind} in ('withdraw', 'trade')`),
    check('money_passwords_attempts', sql`${t.failedAttempts} >= 0`),
  ],
);
