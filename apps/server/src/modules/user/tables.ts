import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Uids start at 10000001 so every uid shown to a user has eight digits. */
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity({ startWith: 10_000_001 }),
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
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_phone_key').on(t.phone),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    // The inviter's list of invitees, newest first.
    index('users_inviter_idx').on(t.inviterId, t.id),
    check('users_has_contact', sql`${t.email} is not null or ${t.phone} is not null`),
    check('users_points_nonnegative', sql`${t.points} >= 0`),
  ],
);

export type UserRow = typeof users.$inferSelect;
