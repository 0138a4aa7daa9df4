import crypto from 'node:crypto';
import type { ErrorName } from '@tradewind/contract/errors';
import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import {
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_PATTERN,
  SIGN_IN_HISTORY_LIMIT,
  type SecurityOverview,
  type SignInEvent,
  type SignInResult,
  type TwoFactorSetup,
  WITHDRAWAL_LOCK_MS,
  type WithdrawalLock,
  type WithdrawalLockReason,
  networkHint,
} from '@tradewind/contract/security';
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { AuthContext } from '#platform/http.ts';
import { translate } from '#platform/i18n.ts';
import { listSessions } from '../auth/sessions.ts';
import { moneyPasswords } from '../money-password/tables.ts';
import { users } from '../user/tables.ts';
import { recoveryCodes, signInEvents, userSecurity } from './tables.ts';
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

/**
 * Security centre: two-factor (TOTP and recovery codes), sign-in history, the
 * anti-phishing code, and the 24 h withdrawal lock after a credential change. Errors:
 * TWO_FACTOR_REQUIRED, TWO_FACTOR_CODE_INVALID, TWO_FACTOR_CODE_REUSED (field `code` or
 * `totpCode`), TWO_FACTOR_ALREADY_ENABLED, TWO_FACTOR_NOT_ENABLED, TWO_FACTOR_SETUP_MISSING,
 * WITHDRAWALS_LOCKED.
 */

export interface SecurityDeps {
  db: Db;
  clock: Clock;
}

type SecurityRow = typeof userSecurity.$inferSelect;

export type SecondFactorMethod = 'totp' | 'recovery_code';

async function securityRow(db: Executor, userId: number): Promise<SecurityRow | undefined> {
  const [row] = await db
    .select()
    .from(userSecurity)
    .where(eq(userSecurity.userId, userId))
    .limit(1);
  return row;
}

/** The user's row, created if missing and locked for this transaction: code checks on one user run one at a time. */
async function lockedSecurityRow(tx: Executor, userId: number, now: Date): Promise<SecurityRow> {
  await tx.insert(userSecurity).values({ userId, updatedAt: now }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(userSecurity)
    .where(eq(userSecurity.userId, userId))
    .for('update');
  if (!row) throw new Error('user_security row missing after insert');
  return row;
}

export async function isTwoFactorEnabled(db: Executor, userId: number): Promise<boolean> {
  return Boolean((await securityRow(db, userId))?.totpEnabledAt);
}

/* Sign-in history */

export async function recordSignIn(
  db: Executor,
  input: {
    userId: number;
    result: SignInResult;
    method: 'password' | SecondFactorMethod;
    device: string;
    ip: string;
    now: Date;
  },
): Promise<void> {
  await db.insert(signInEvents).values({
    userId: input.userId,
    result: input.result,
    method: input.method,
    device: input.device.slice(0, 200) || 'unknown',
    ip: input.ip.slice(0, 64),
    createdAt: input.now,
  });
}

export async function signInHistory(db: Executor, userId: number): Promise<SignInEvent[]> {
  const rows = await db
    .select()
    .from(signInEvents)
    .where(eq(signInEvents.userId, userId))
    .orderBy(desc(signInEvents.id))
    .limit(SIGN_IN_HISTORY_LIMIT);
  return rows.map((row) => ({
    id: String(row.id),
    result: row.result as SignInResult,
    method: row.method as SignInEvent['method'],
    device: row.device,
    ip: row.ip,
    network: networkHint(row.ip),
    at: row.createdAt.toISOString(),
  }));
}

/* Withdrawal lock */

/** Pauses withdrawals for 24 h from now (a later change extends the pause, never shortens it). */
export async function lockWithdrawals(
  tx: Executor,
  userId: number,
  now: Date,
  reason: WithdrawalLockReason,
): Promise<void> {
  const until = new Date(now.getTime() + WITHDRAWAL_LOCK_MS);
  await tx
    .insert(userSecurity)
    .values({
      userId,
      withdrawalsLockedUntil: until,
      withdrawalsLockReason: reason,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: userSecurity.userId,
      set: {
        withdrawalsLockedUntil: sql`greatest(${userSecurity.withdrawalsLockedUntil}, excluded.withdrawals_locked_until)`,
        withdrawalsLockReason: reason,
        updatedAt: now,
      },
    });
}

function lockOf(row: SecurityRow | undefined, now: Date): WithdrawalLock {
  if (!row?.withdrawalsLockedUntil || row.withdrawalsLockedUntil.getTime() <= now.getTime())
    return null;
  return {
    until: row.withdrawalsLockedUntil.toISOString(),
    reason: row.withdrawalsLockReason as WithdrawalLockReason,
  };
}

export async function withdrawalLock(
  db: Executor,
  userId: number,
  now: Date,
): Promise<WithdrawalLock> {
  return lockOf(await securityRow(db, userId), now);
}

/** Raises WITHDRAWALS_LOCKED (403) with the unlock time in the user's language and the reason. */
export async function assertWithdrawalsUnlocked(
  db: Executor,
  userId: number,
  now: Date,
  language: Language,
): Promise<void> {
  const lock = await withdrawalLock(db, userId, now);
  if (!lock) return;
  // Intl refuses timeZoneName next to dateStyle; the server does not know the user's zone, so it says UTC.
  const until = `${new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(lock.until))} UTC`;
  throw new AppError(
    'WITHDRAWALS_LOCKED',
    { until, reason: translate(language, `security.lock_reason.${lock.reason}`) },
    403,
  );
}

/* Second factor */

const hashRecoveryCode = (code: string) => crypto.createHash('sha256').update(code).digest('hex');

function newRecoveryCode(): string {
  const text = base32Encode(crypto.randomBytes(7)).toLowerCase().slice(0, 10);
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/**
 * Checks a code against the user's (locked) row and spends it: a TOTP code moves the last
 * accepted step forward, so the same code (or an older one) is refused afterwards; a
 * recovery code is marked used. Returns the method, or the error to raise.
 */
async function spendSecondFactor(
  tx: Executor,
  row: SecurityRow,
  code: string,
  now: Date,
  allowRecovery: boolean,
): Promise<{ method: SecondFactorMethod } | { error: ErrorName }> {
  if (!row.totpSecret) return { error: 'TWO_FACTOR_NOT_ENABLED' };
  if (/^\d{6}$/.test(code)) {
    const step = matchTotp(row.totpSecret, code, now.getTime());
    if (step === undefined) return { error: 'TWO_FACTOR_CODE_INVALID' };
    if (row.totpLastStep !== null && step <= row.totpLastStep)
      return { error: 'TWO_FACTOR_CODE_REUSED' };
    await tx
      .update(userSecurity)
      .set({ totpLastStep: step, updatedAt: now })
      .where(eq(userSecurity.userId, row.userId));
    return { method: 'totp' };
  }
  if (allowRecovery && RECOVERY_CODE_PATTERN.test(code)) {
    const used = await tx
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, row.userId),
          eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return used.length > 0 ? { method: 'recovery_code' } : { error: 'TWO_FACTOR_CODE_INVALID' };
  }
  return { error: 'TWO_FACTOR_CODE_INVALID' };
}

/**
 * The second step of a sign-in, inside the caller's transaction. Recovery codes are
 * accepted here (that is what they are for: a lost phone).
 */
export async function checkSignInSecondFactor(
  tx: Executor,
  userId: number,
  code: string,
  now: Date,
) {
  return spendSecondFactor(tx, await lockedSecurityRow(tx, userId, now), code, now, true);
}

/**
 * A withdrawal with two-factor on needs a current authenticator code, spent in the money
 * transaction (a refused withdrawal rolls the step back with it). Recovery codes are not
 * accepted for money leaving the account.
 */
export async function requireWithdrawalSecondFactor(
  tx: Executor,
  userId: number,
  code: string | undefined,
  now: Date,
): Promise<void> {
  // No row, no two-factor: a withdrawal by a user who never touched these settings writes nothing here.
  const [row] = await tx
    .select()
    .from(userSecurity)
    .where(eq(userSecurity.userId, userId))
    .for('update');
  if (!row?.totpEnabledAt) return;
  if (!code) throw new AppError('TWO_FACTOR_REQUIRED', {}, 422, 'totpCode');
  const outcome = await spendSecondFactor(tx, row, code, now, false);
  if ('error' in outcome) throw new AppError(outcome.error, {}, 422, 'totpCode');
}

/** Before the withdrawal password is tried: a request that will need a code and has none is refused first. */
export async function precheckWithdrawalSecondFactor(
  db: Executor,
  userId: number,
  code: string | undefined,
): Promise<void> {
  if (!code && (await isTwoFactorEnabled(db, userId)))
    throw new AppError('TWO_FACTOR_REQUIRED', {}, 422, 'totpCode');
}

/* Enrolment */

async function accountLabel(db: Executor, userId: number): Promise<string> {
  const [user] = await db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user?.email ?? user?.phone ?? String(userId);
}

/** Step 1: a fresh secret (replacing any unconfirmed one). Raises TWO_FACTOR_ALREADY_ENABLED. */
export async function setupTwoFactor(
  deps: SecurityDeps,
  auth: AuthContext,
): Promise<TwoFactorSetup> {
  const now = deps.clock.now();
  const secret = newTotpSecret();
  await deps.db.transaction(async (tx) => {
    const row = await lockedSecurityRow(tx, auth.userId, now);
    if (row.totpEnabledAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', {}, 409);
    await tx
      .update(userSecurity)
      .set({ totpPendingSecret: secret, updatedAt: now })
      .where(eq(userSecurity.userId, auth.userId));
  });
  return { secret, uri: otpauthUri(secret, await accountLabel(deps.db, auth.userId)) };
}

/**
 * Step 2: a code from the app switches two-factor on, returns ten recovery codes (shown
 * once; only hashes are kept) and pauses withdrawals for 24 h.
 */
export async function enableTwoFactor(
  deps: SecurityDeps,
  auth: AuthContext,
  code: string,
): Promise<{ recoveryCodes: string[]; withdrawalLock: WithdrawalLock }> {
  const now = deps.clock.now();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    const row = await lockedSecurityRow(tx, auth.userId, now);
    if (row.totpEnabledAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', {}, 409);
    if (!row.totpPendingSecret) throw new AppError('TWO_FACTOR_SETUP_MISSING', {}, 409);
    const step = matchTotp(row.totpPendingSecret, code, now.getTime());
    if (step === undefined) throw new AppError('TWO_FACTOR_CODE_INVALID', {}, 422, 'code');
    await tx
      .update(userSecurity)
      .set({
        totpSecret: row.totpPendingSecret,
        totpPendingSecret: null,
        totpEnabledAt: now,
        totpLastStep: step,
        updatedAt: now,
      })
      .where(eq(userSecurity.userId, auth.userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, auth.userId));
    await tx
      .insert(recoveryCodes)
      .values(
        codes.map((c) => ({ userId: auth.userId, codeHash: hashRecoveryCode(c), createdAt: now })),
      );
    await lockWithdrawals(tx, auth.userId, now, 'two_factor_enabled');
  });
  return { recoveryCodes: codes, withdrawalLock: await withdrawalLock(deps.db, auth.userId, now) };
}

/** Needs a current code or a recovery code; pauses withdrawals for 24 h. */
export async function disableTwoFactor(
  deps: SecurityDeps,
  auth: AuthContext,
  code: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const row = await lockedSecurityRow(tx, auth.userId, now);
    if (!row.totpEnabledAt) throw new AppError('TWO_FACTOR_NOT_ENABLED', {}, 409);
    const outcome = await spendSecondFactor(tx, row, code, now, true);
    if ('error' in outcome) throw new AppError(outcome.error, {}, 422, 'code');
    await tx
      .update(userSecurity)
      .set({
        totpSecret: null,
        totpEnabledAt: null,
        totpPendingSecret: null,
        totpLastStep: null,
        updatedAt: now,
      })
      .where(eq(userSecurity.userId, auth.userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, auth.userId));
    await lockWithdrawals(tx, auth.userId, now, 'two_factor_disabled');
  });
}

/* Anti-phishing code */

/** An empty code removes it. */
export async function setAntiPhishingCode(
  deps: SecurityDeps,
  auth: AuthContext,
  code: string,
): Promise<void> {
  const now = deps.clock.now();
  const value = code === '' ? null : code;
  await deps.db
    .insert(userSecurity)
    .values({ userId: auth.userId, antiPhishingCode: value, updatedAt: now })
    .onConflictDoUpdate({
      target: userSecurity.userId,
      set: { antiPhishingCode: value, updatedAt: now },
    });
}

/** The code to print in an email to this address, if its account has set one. */
export async function antiPhishingCodeFor(db: Executor, email: string): Promise<string | null> {
  const [row] = await db
    .select({ code: userSecurity.antiPhishingCode })
    .from(users)
    .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  return row?.code ?? null;
}

/* Overview */

export async function securityOverview(
  deps: SecurityDeps,
  auth: AuthContext,
): Promise<SecurityOverview> {
  const now = deps.clock.now();
  const row = await securityRow(deps.db, auth.userId);
  const [left] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, auth.userId), isNull(recoveryCodes.usedAt)));
  const sessions = await listSessions(deps, auth);
  // Read from the table, not through money-password's service, which imports auth (an import cycle).
  const passwordRows = await deps.db
    .select({ kind: moneyPasswords.kind })
    .from(moneyPasswords)
    .where(and(eq(moneyPasswords.userId, auth.userId), isNotNull(moneyPasswords.passwordHash)));
  const passwords = new Set(passwordRows.map((r) => r.kind));
  return {
    twoFactorEnabled: Boolean(row?.totpEnabledAt),
    recoveryCodesLeft: row?.totpEnabledAt ? Number(left?.n ?? 0) : 0,
    antiPhishingCode: row?.antiPhishingCode ?? null,
    withdrawalLock: lockOf(row, now),
    withdrawPasswordSet: passwords.has('withdraw'),
    tradePasswordSet: passwords.has('trade'),
    sessions: sessions.map((s) => ({
      id: s.id,
      device: s.device,
      ip: s.ip,
      network: networkHint(s.ip),
      createdAt: s.createdAt,
      lastUsedAt: s.lastUsedAt,
      current: s.current,
    })),
    signIns: await signInHistory(deps.db, auth.userId),
  };
}
