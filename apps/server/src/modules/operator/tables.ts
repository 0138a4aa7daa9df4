import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** People who run Tradewind: separate accounts with a role, never users with a flag. */
export const operators = pgTable(
  'operators',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    /** Null until the operator redeems their enrolment code and sets their own password. */
    passwordHash: text('password_hash'),
    role: text('role').notNull(),
    /** Base32 TOTP secret, set when the account is created; sign-in needs its code (issue 7: TOTP required). */
    totpSecret: text('totp_secret'),
    /** The last TOTP step used to sign in: a code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('operators_username_key').on(t.username)],
);

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('operator_sessions_token_hash_key').on(t.tokenHash)],
);

/** Who did what, when, to what, before and after, and why. Written in the same transaction as the action. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The operator who acted; null when no operator did (the CLI creating the first admin). */
    operatorId: bigint('operator_id', { mode: 'number' }).references(() => operators.id),
    /** Who acted from a shell: `cli:<os user>`; null for actions through the API. */
    actor: text('actor'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: text('before'),
    after: text('after'),
    reason: text('reason'),
    /** api or cli */
    via: text('via').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    index('audit_log_action_idx').on(t.action),
  ],
);

/**
 * Creating an operator, enabling one again or changing a role: one admin requests, another
 * approves (ARCHITECTURE §8, two-person rule). `kind` create | enable | role.
 */
export const operatorRequests = pgTable(
  'operator_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    /** The operator concerned: set at request time for enable/role, at approval for create. */
    targetOperatorId: bigint('target_operator_id', { mode: 'number' }).references(
      () => operators.id,
    ),
    username: text('username').notNull(),
    role: text('role').notNull(),
    reason: text('reason').notNull(),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    status: text('status').notNull(),
    /** Null when the request was approved from the server's shell while the install had one admin. */
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedActor: text('decided_actor'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('operator_requests_status_idx').on(t.status, t.id),
    index('operator_requests_target_idx').on(t.targetOperatorId),
    check(
      'operator_requests_not_self',
      sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`,
    ),
  ],
);

/**
 * A single-use code that lets a new operator set their own password and TOTP. Stored hashed;
 * the TOTP secret is proposed at the first step and kept until the code is redeemed.
 */
export const operatorEnrolments = pgTable(
  'operator_enrolments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    requestId: bigint('request_id', { mode: 'number' }).references(() => operatorRequests.id),
    codeHash: text('code_hash').notNull(),
    totpSecret: text('totp_secret'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('operator_enrolments_code_hash_key').on(t.codeHash),
    index('operator_enrolments_operator_idx').on(t.operatorId),
  ],
);
