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
 * One row per user who has touched a security setting. The TOTP secret must be readable
 * to check codes, so it is stored as is (base32); `totp_last_step` is the 30 s step of the
 * last accepted code, so a code cannot be used twice.
 */
export const userSecurity = pgTable(
  'user_security',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
    /** A secret shown for enrolment, not yet confirmed by a code. */
    totpPendingSecret: text('totp_pending_secret'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    antiPhishingCode: text('anti_phishing_code'),
    withdrawalsLockedUntil: timestamp('withdrawals_locked_until', {
      withTimezone: true,
      mode: 'date',
    }),
    withdrawalsLockReason: text('withdrawals_lock_reason'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check(
      'user_security_totp_enabled',
      sql`(${t.totpSecret} is null) = (${t.totpEnabledAt} is null)`,
    ),
  ],
);

/** Single-use recovery codes; only their SHA-256 is kept (each carries 50 random bits). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/**
 * Every sign-in attempt on an existing account, kept append-only (a trigger refuses
 * updates and deletes): what the user reads in the security centre is what happened.
 * Attempts on addresses that have no account are not recorded: there is nobody to show them to.
 */
export const signInEvents = pgTable(
  'sign_in_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    result: text('result').notNull(),
    method: text('method').notNull(),
    device: text('device').notNull(),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sign_in_events_user_idx').on(t.userId, t.id)],
);

/** The password step passed with two-factor on: a short-lived ticket for the code step. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('login_challenges_token_hash_key').on(t.tokenHash)],
);
