import crypto from 'node:crypto';
import { verify } from '@node-rs/argon2';
import type { Channel } from '@tradewind/contract/auth';
import type { ErrorName } from '@tradewind/contract/errors';
import type { Language } from '@tradewind/contract/languages';
import {
  MONEY_PASSWORD_CODE_PURPOSE,
  MONEY_PASSWORD_LOCK_MS,
  MONEY_PASSWORD_MAX_ATTEMPTS,
  type MoneyPasswordKind,
  type MoneyPasswordStatus,
  type SendMoneyPasswordCodeRequest,
  type SetMoneyPasswordRequest,
} from '@tradewind/contract/money-password';
import { and, eq } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { Params } from '#platform/i18n.ts';
import type { Notifier } from '#platform/notifier.ts';
import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS, consumeCode, issueCode } from '../auth/codes.ts';
import { hashPassword } from '../auth/passwords.ts';
import { users } from '../user/tables.ts';
import { moneyPasswords } from './tables.ts';

/**
 * Withdrawal and trading passwords (ARCHITECTURE §8). Errors this service raises:
 * WITHDRAW_PASSWORD_NOT_SET, TRADE_PASSWORD_NOT_SET, MONEY_PASSWORD_INCORRECT (field),
 * MONEY_PASSWORD_LOCKED, LOGIN_PASSWORD_INCORRECT (field), NO_ADDRESS_ON_CHANNEL (field),
 * the CODE_* errors (field `code`), and issueCode's CODE_COOLDOWN, RATE_LIMITED,
 * CHANNEL_UNAVAILABLE.
 */

export interface MoneyPasswordDeps {
  db: Db;
  clock: Clock;
  notifier: Notifier;
}

const NOT_SET: Record<MoneyPasswordKind, ErrorName> = {
  withdraw: 'WITHDRAW_PASSWORD_NOT_SET',
  trade: 'TRADE_PASSWORD_NOT_SET',
};

type Row = typeof moneyPasswords.$inferSelect;

/** A failure decided inside a transaction and raised after it commits, so the counted attempt stays counted. */
interface Refusal {
  error: ErrorName;
  params?: Params;
  field?: string;
}

const STATUS: Partial<Record<ErrorName, number>> = {
  MONEY_PASSWORD_LOCKED: 429,
  WITHDRAW_PASSWORD_NOT_SET: 403,
  TRADE_PASSWORD_NOT_SET: 403,
};

function raise(refusal: Refusal): never {
  throw new AppError(refusal.error, refusal.params ?? {}, STATUS[refusal.error], refusal.field);
}

function lockRefusal(lockedUntil: Date, now: Date): Refusal {
  return {
    error: 'MONEY_PASSWORD_LOCKED',
    params: { minutes: Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000)) },
  };
}

const isLocked = (row: Row, now: Date) =>
  row.lockedUntil !== null && row.lockedUntil.getTime() > now.getTime();

/**
 * Counts one wrong attempt. The fifth in a row locks for 15 minutes and starts the count
 * again, so after the lock the user has five more tries.
 */
async function countFailure(tx: Tx, row: Row, now: Date, wrong: Refusal): Promise<Refusal> {
  const attempts = row.failedAttempts + 1;
  const where = and(eq(moneyPasswords.userId, row.userId), eq(moneyPasswords.kind, row.kind));
  if (attempts >= MONEY_PASSWORD_MAX_ATTEMPTS) {
    const lockedUntil = new Date(now.getTime() + MONEY_PASSWORD_LOCK_MS);
    await tx
      .update(moneyPasswords)
      .set({ failedAttempts: 0, lockedUntil, updatedAt: now })
      .where(where);
    return lockRefusal(lockedUntil, now);
  }
  await tx.update(moneyPasswords).set({ failedAttempts: attempts, updatedAt: now }).where(where);
  return {
    ...wrong,
    params: { ...wrong.params, remaining: MONEY_PASSWORD_MAX_ATTEMPTS - attempts },
  };
}

/** The row for (user, kind), locked for this transaction: wrong attempts on one kind are counted one at a time. */
async function lockedRow(
  tx: Tx,
  userId: number,
  kind: MoneyPasswordKind,
  now: Date,
  create: boolean,
): Promise<Row | undefined> {
  if (create)
    await tx
      .insert(moneyPasswords)
      .values({ userId, kind, createdAt: now, updatedAt: now })
      .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(moneyPasswords)
    .where(and(eq(moneyPasswords.userId, userId), eq(moneyPasswords.kind, kind)))
    .for('update');
  return row;
}

export async function isMoneyPasswordSet(
  db: Executor,
  userId: number,
  kind: MoneyPasswordKind,
): Promise<boolean> {
  const [row] = await db
    .select({ hash: moneyPasswords.passwordHash })
    .from(moneyPasswords)
    .where(and(eq(moneyPasswords.userId, userId), eq(moneyPasswords.kind, kind)))
    .limit(1);
  return Boolean(row?.hash);
}

/** The refusal when the user has no password of `kind` yet (spec §5: they are asked to set it). */
export function moneyPasswordNotSet(kind: MoneyPasswordKind): AppError {
  return new AppError(NOT_SET[kind], {}, 403);
}

/** Raises WITHDRAW_PASSWORD_NOT_SET or TRADE_PASSWORD_NOT_SET when the user has none yet. */
export async function requireMoneyPassword(
  db: Executor,
  userId: number,
  kind: MoneyPasswordKind,
): Promise<void> {
  if (!(await isMoneyPasswordSet(db, userId, kind))) throw moneyPasswordNotSet(kind);
}

/**
 * How long a password this process has just verified is taken again without argon2 (tens of
 * milliseconds of CPU per hash, by design): a trader who sends the same trading password with
 * every order pays for the hash once in this window, not once per order.
 */
export const VERIFIED_PASSWORD_TTL_MS = 10 * 60_000;
const VERIFIED_PASSWORD_MAX = 100_000;
/** Keys the digests below; made at start, never stored, so the map holds nothing a password can be recovered from. */
const VERIFIED_KEY = crypto.randomBytes(32);

interface VerifiedPassword {
  /** HMAC of the password that matched. */
  digest: Buffer;
  /** The stored hash it matched: a changed password no longer counts. */
  passwordHash: string;
  untilMs: number;
}

/** `${userId}:${kind}` → the password last verified right. Insertion order is age: the oldest go first. */
const verifiedPasswords = new Map<string, VerifiedPassword>();

const digestOf = (userId: number, kind: MoneyPasswordKind, password: string) =>
  crypto.createHmac('sha256', VERIFIED_KEY).update(`${userId}:${kind}:${password}`).digest();

function rememberVerified(
  userId: number,
  kind: MoneyPasswordKind,
  password: string,
  passwordHash: string,
  now: Date,
): void {
  const key = `${userId}:${kind}`;
  verifiedPasswords.delete(key);
  if (verifiedPasswords.size >= VERIFIED_PASSWORD_MAX) {
    const oldest = verifiedPasswords.keys().next().value;
    if (oldest !== undefined) verifiedPasswords.delete(oldest);
  }
  verifiedPasswords.set(key, {
    digest: digestOf(userId, kind, password),
    passwordHash,
    untilMs: now.getTime() + VERIFIED_PASSWORD_TTL_MS,
  });
}

/**
 * The same password this process verified right within VERIFIED_PASSWORD_TTL_MS, against the
 * stored hash as it is now, with no lock and no wrong attempt counted since: it is right again,
 * and no hash needs computing. Anything else (another password, a change, a lock, a failure)
 * takes the full check.
 */
async function verifiedRecently(
  db: Db,
  userId: number,
  kind: MoneyPasswordKind,
  password: string,
  now: Date,
): Promise<boolean> {
  const remembered = verifiedPasswords.get(`${userId}:${kind}`);
  if (!remembered || remembered.untilMs <= now.getTime()) return false;
  if (!crypto.timingSafeEqual(remembered.digest, digestOf(userId, kind, password))) return false;
  const [row] = await db
    .select()
    .from(moneyPasswords)
    .where(and(eq(moneyPasswords.userId, userId), eq(moneyPasswords.kind, kind)))
    .limit(1);
  return (
    row !== undefined &&
    row.passwordHash === remembered.passwordHash &&
    row.failedAttempts === 0 &&
    !isLocked(row, now)
  );
}

/**
 * Checks a money password. Runs its own transaction, so a wrong attempt is counted even
 * when the caller's work is then refused: call it before the money transaction (a route's
 * `precheck`). Attempts on one kind are serialised by a row lock, so concurrent guesses
 * cannot slip past the limit. The password verified right last, if it is sent again soon,
 * is taken without recomputing the hash (`verifiedRecently`); a wrong one always is hashed
 * and counted. Raises *_PASSWORD_NOT_SET, MONEY_PASSWORD_LOCKED, and
 * MONEY_PASSWORD_INCORRECT on `field`.
 */
export async function verifyMoneyPassword(
  deps: { db: Db; clock: Clock },
  userId: number,
  kind: MoneyPasswordKind,
  password: string,
  field = 'password',
): Promise<void> {
  const now = deps.clock.now();
  if (await verifiedRecently(deps.db, userId, kind, password, now)) return;
  const refusal = await deps.db.transaction(async (tx): Promise<Refusal | null> => {
    const row = await lockedRow(tx as Tx, userId, kind, now, false);
    if (!row?.passwordHash) return { error: NOT_SET[kind] };
    if (isLocked(row, now)) return lockRefusal(row.lockedUntil as Date, now);
    if (!(await verify(row.passwordHash, password)))
      return countFailure(tx as Tx, row, now, { error: 'MONEY_PASSWORD_INCORRECT', field });
    if (row.failedAttempts > 0) {
      await tx
        .update(moneyPasswords)
        .set({ failedAttempts: 0, updatedAt: now })
        .where(and(eq(moneyPasswords.userId, userId), eq(moneyPasswords.kind, kind)));
    }
    rememberVerified(userId, kind, password, row.passwordHash, now);
    return null;
  });
  if (refusal) raise(refusal);
}

function maskAddress(channel: Channel, target: string): string {
  if (channel === 'phone') return `***${target.slice(-4)}`;
  const [local = '', domain = ''] = target.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
}

async function contactOf(db: Executor, userId: number, channel: Channel): Promise<string | null> {
  const [user] = await db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHORIZED');
  return channel === 'email' ? user.email : user.phone;
}

export async function moneyPasswordStatus(
  db: Executor,
  now: Date,
  userId: number,
): Promise<MoneyPasswordStatus> {
  const rows = await db.select().from(moneyPasswords).where(eq(moneyPasswords.userId, userId));
  const [user] = await db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const state = (kind: MoneyPasswordKind) => {
    const row = rows.find((r) => r.kind === kind);
    return {
      set: Boolean(row?.passwordHash),
      lockedUntil: row && isLocked(row, now) ? (row.lockedUntil as Date).toISOString() : null,
    };
  };
  const contacts: MoneyPasswordStatus['contacts'] = [];
  if (user?.email) contacts.push({ channel: 'email', masked: maskAddress('email', user.email) });
  if (user?.phone) contacts.push({ channel: 'phone', masked: maskAddress('phone', user.phone) });
  return { withdraw: state('withdraw'), trade: state('trade'), contacts };
}

/** Sends a code to the user's own address on the channel (never to an address the request names). */
export async function sendMoneyPasswordCode(
  deps: MoneyPasswordDeps,
  userId: number,
  input: SendMoneyPasswordCodeRequest,
  meta: { ip: string; language: Language },
) {
  const target = await contactOf(deps.db, userId, input.channel);
  if (!target) throw new AppError('NO_ADDRESS_ON_CHANNEL', {}, 422, 'channel');
  await issueCode(deps, {
    channel: input.channel,
    target,
    purpose: MONEY_PASSWORD_CODE_PURPOSE[input.kind],
    ip: meta.ip,
    language: meta.language,
    deliver: true,
  });
  return {
    sentTo: maskAddress(input.channel, target),
    resendAfterS: CODE_RESEND_COOLDOWN_MS / 1000,
    expiresInS: CODE_TTL_MS / 1000,
  };
}

/**
 * Sets or changes a money password, proven by the login password or by a code sent to the
 * user's own email or phone. A wrong login password counts toward the same lock as a wrong
 * money password (it is a secret typed at the same door); a code (itself attempt-limited)
 * works while locked and lifts the lock: that is how someone who forgot the password gets
 * back in.
 */
export async function setMoneyPassword(
  deps: MoneyPasswordDeps,
  userId: number,
  input: SetMoneyPasswordRequest,
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const refusal = await deps.db.transaction(async (tx): Promise<Refusal | null> => {
    const row = (await lockedRow(tx as Tx, userId, input.kind, now, true)) as Row;
    if (input.proof === 'login_password') {
      if (isLocked(row, now)) return lockRefusal(row.lockedUntil as Date, now);
      const [user] = await tx
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!user || !(await verify(user.passwordHash, input.loginPassword ?? ''))) {
        return countFailure(tx as Tx, row, now, {
          error: 'LOGIN_PASSWORD_INCORRECT',
          field: 'loginPassword',
        });
      }
    } else {
      const channel = input.channel as Channel;
      const target = await contactOf(tx, userId, channel);
      if (!target) return { error: 'NO_ADDRESS_ON_CHANNEL', field: 'channel' };
      const failed = await consumeCode(tx, now, {
        target,
        purpose: MONEY_PASSWORD_CODE_PURPOSE[input.kind],
        code: input.code ?? '',
      });
      if (failed) return { error: failed, field: 'code' };
    }
    await tx
      .update(moneyPasswords)
      .set({ passwordHash, failedAttempts: 0, lockedUntil: null, updatedAt: now })
      .where(and(eq(moneyPasswords.userId, userId), eq(moneyPasswords.kind, input.kind)));
    return null;
  });
  if (refusal) raise(refusal);
}
