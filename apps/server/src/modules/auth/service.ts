import crypto from 'node:crypto';
import { verify } from '@node-rs/argon2';
import {
  type ChangePasswordRequest,
  type Channel,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
  type SendCodeRequest,
  type SendCodeResponse,
  type SessionResponse,
  normalizeAccount,
} from '@tradewind/contract/auth';
import type { ErrorName } from '@tradewind/contract/errors';
import type { Language } from '@tradewind/contract/languages';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
import type { AuthContext } from '#platform/http.ts';
import type { Notifier } from '#platform/notifier.ts';
import type { Hub } from '#platform/ws.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { users } from '../user/tables.ts';
import { addressHolder, takeUnprovedAddress } from './address-claims.ts';
import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS, consumeCode, issueCode } from './codes.ts';
import { DUMMY_HASH, hashPassword } from './passwords.ts';
import type { LoginResponse } from '@tradewind/contract/security';
import { createLoginChallenge } from '../security/login.ts';
import { isTwoFactorEnabled, lockWithdrawals, recordSignIn } from '../security/service.ts';
import { type SessionMeta, createSession, revokeSessions } from './sessions.ts';
import { FREE_ATTEMPTS, admitAttempt, clearAttempts, userSubject } from './sign-in-throttle.ts';
import { createMessages, languageOf, publishMessages } from '../messages/service.ts';

export interface AuthDeps {
  db: Db;
  clock: Clock;
  config: Config;
  notifier: Notifier;
  /** Pushes a new in-site message to the owner's open sessions. */
  hub?: Hub;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export interface RequestMeta extends SessionMeta {
  language: Language;
}

/** Invitation codes: 8 characters without look-alikes (no 0/O, 1/I). */
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += INVITE_ALPHABET[crypto.randomInt(INVITE_ALPHABET.length)];
  return code;
}

function accountOf(channel: Channel, account: string): string {
  const target = normalizeAccount(channel, account);
  // The schema already checked it; reaching here with a bad address is a bug.
  if (target === undefined) throw new Error(`unnormalisable ${channel} passed validation`);
  return target;
}

/** A default nickname that does not expose the whole address: "ab***@example.com", "***8000". */
function maskedNickname(channel: Channel, target: string): string {
  if (channel === 'phone') return `***${target.slice(-4)}`;
  const [local = '', domain = ''] = target.split('@');
  return `${local.slice(0, 2)}***@${domain}`.slice(0, 40);
}

/** The account that proved this address; one that holds it unproved does not own it (decision 0026). */
async function findOwnerId(
  db: Executor,
  channel: Channel,
  target: string,
): Promise<number | undefined> {
  const holder = await addressHolder(db, channel, target);
  return holder?.proved ? holder.userId : undefined;
}

/** Raises ACCOUNT_EXISTS (register), CODE_COOLDOWN, RATE_LIMITED, CHANNEL_UNAVAILABLE. */
export async function sendCode(
  deps: AuthDeps,
  input: SendCodeRequest,
  meta: RequestMeta,
): Promise<SendCodeResponse> {
  const target = accountOf(input.channel, input.account);
  const owner = await findOwnerId(deps.db, input.channel, target);
  if (input.purpose === 'register' && owner !== undefined) throw new AppError('ACCOUNT_EXISTS');
  // A reset for an unknown address answers exactly like a real one, so addresses cannot be probed.
  // An address held but never proved counts as unknown: a reset through it would hand the
  // account (and whatever two-factor its holder set up) to the address owner, who never made it.
  const deliver = input.purpose === 'register' || owner !== undefined;
  await issueCode(deps, {
    channel: input.channel,
    target,
    purpose: input.purpose,
    ip: meta.ip,
    language: meta.language,
    deliver,
  });
  return { resendAfterS: CODE_RESEND_COOLDOWN_MS / 1000, expiresInS: CODE_TTL_MS / 1000 };
}

/**
 * Registers by verification code or by invitation code and signs the new user in. Both tabs
 * prove the address with the code sent to it; an account that holds the address without
 * having proved it (an old invitation registration) gives way (decision 0026). Raises CODE_*,
 * INVITE_CODE_INVALID, ACCOUNT_EXISTS.
 */
export async function register(
  deps: AuthDeps,
  input: RegisterRequest,
  meta: RequestMeta,
): Promise<SessionResponse> {
  const target = accountOf(input.channel, input.account);
  if ((await findOwnerId(deps.db, input.channel, target)) !== undefined)
    throw new AppError('ACCOUNT_EXISTS');
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();

  const outcome = await deps.db
    .transaction(async (tx): Promise<SessionResponse | ErrorName> => {
      let inviterId: number | null = null;
      if (input.inviteCode) {
        const [inviter] = await tx
          .select({ id: users.id })
          .from(users)
          .where(eq(users.inviteCode, input.inviteCode))
          .limit(1);
        if (!inviter) return 'INVITE_CODE_INVALID';
        inviterId = inviter.id;
      }
      // The schema asks for the code in both tabs; an empty one simply fails here.
      const failure = await consumeCode(tx, now, {
        target,
        purpose: 'register',
        code: input.code ?? '',
      });
      if (failure) return failure;
      if ((await takeUnprovedAddress(tx, now, { channel: input.channel, target })) === 'proved')
        return 'ACCOUNT_EXISTS';
      const [user] = await tx
        .insert(users)
        .values({
          email: input.channel === 'email' ? target : null,
          phone: input.channel === 'phone' ? target : null,
          emailVerified: input.channel === 'email',
          phoneVerified: input.channel === 'phone',
          passwordHash,
          nickname: maskedNickname(input.channel, target),
          inviteCode: newInviteCode(),
          inviterId,
          language: meta.language,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      if (!user) throw new Error('insert returned no row');
      return createSession(tx, { userId: user.id, now, ttlMs: deps.config.sessionTtlMs, meta });
    })
    .catch((error: unknown) => {
      if (
        isUniqueViolation(error, 'users_email_key') ||
        isUniqueViolation(error, 'users_phone_key')
      )
        return 'ACCOUNT_EXISTS' as const;
      // 32^8 codes make a clash rare; the user simply tries again.
      if (isUniqueViolation(error, 'users_invite_code_key')) return 'CONFLICT' as const;
      throw error;
    });
  if (typeof outcome === 'string') throw new AppError(outcome);
  return outcome;
}

/**
 * Raises INVALID_CREDENTIALS (unknown address or wrong password: the same answer) or
 * ACCOUNT_FROZEN. With two-factor on, the right password gives a challenge for the code
 * step (security/login.ts), not a session. Every attempt on an existing account is
 * recorded in its sign-in history.
 */
export async function login(
  deps: AuthDeps,
  input: LoginRequest,
  meta: RequestMeta,
): Promise<LoginResponse> {
  const target = accountOf(input.channel, input.account);
  const subject = userSubject(input.channel, target);
  const attempt = await admitAttempt(deps.db, subject, deps.clock.now());
  const column = input.channel === 'email' ? users.email : users.phone;
  const [user] = await deps.db
    .select({ id: users.id, passwordHash: users.passwordHash, frozenAt: users.frozenAt })
    .from(users)
    .where(eq(column, target))
    .limit(1);
  const valid = await verify(user?.passwordHash ?? DUMMY_HASH, input.password);
  if (!user) throw new AppError('INVALID_CREDENTIALS');
  const now = deps.clock.now();
  const event = {
    userId: user.id,
    method: 'password' as const,
    device: meta.device,
    ip: meta.ip,
    now,
  };
  if (!valid) {
    await recordSignIn(deps.db, { ...event, result: 'wrong_password' });
    // The run just reached its first wait: the owner hears of it once, here and by email.
    if (attempt.number === FREE_ATTEMPTS) await warnOwnerOfThrottle(deps, user.id, now);
    throw new AppError('INVALID_CREDENTIALS');
  }
  await clearAttempts(deps.db, subject);
  if (user.frozenAt) {
    await recordSignIn(deps.db, { ...event, result: 'frozen' });
    throw new AppError('ACCOUNT_FROZEN');
  }
  if (await isTwoFactorEnabled(deps.db, user.id)) {
    // The password is known to whoever typed it: the owner sees that in the history even if no code follows.
    await recordSignIn(deps.db, { ...event, result: 'awaiting_code' });
    return createLoginChallenge(deps.db, { userId: user.id, now });
  }
  return deps.db.transaction(async (tx) => {
    await recordSignIn(tx, { ...event, result: 'success' });
    return createSession(tx, { userId: user.id, now, ttlMs: deps.config.sessionTtlMs, meta });
  });
}

/**
 * Tells the owner that sign-in to their account is paused after wrong passwords: an in-site
 * message, and an email (or SMS) to their address where one can be sent, in the background. A
 * failure to send is logged, never the sign-in's error.
 */
async function warnOwnerOfThrottle(deps: AuthDeps, userId: number, now: Date): Promise<void> {
  const params = { count: FREE_ATTEMPTS };
  const created = await createMessages(deps.db, now, [
    {
      userId,
      kind: 'account.sign_in_throttled',
      ref: `sign-in:${now.getTime()}`,
      params,
      link: '/Security',
    },
  ]);
  publishMessages(deps.hub, created);
  const [owner] = await deps.db
    .select({ email: users.email, phone: users.phone, language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const channel: Channel | undefined = owner?.email ? 'email' : owner?.phone ? 'phone' : undefined;
  if (!owner || !channel || !deps.notifier.available(channel)) return;
  const language = languageOf(owner.language);
  // Not awaited: a slow mail server must not make this reply slower than a wrong password for an
  // address with no account, which would tell a guesser the account exists.
  void deps.notifier
    .send({
      channel,
      to: (channel === 'email' ? owner.email : owner.phone) as string,
      subject: translate(language, 'notify.sign_in_throttled_subject'),
      body: translate(language, 'notify.sign_in_throttled_body', params),
      language,
    })
    .catch((error: unknown) =>
      deps.log?.warn({ err: error, userId }, 'the sign-in pause notice could not be sent'),
    );
}

/** Sets a new password with a code sent to the address, signs out every device, pauses withdrawals for 24 h. Raises CODE_*. */
export async function resetPassword(deps: AuthDeps, input: ResetPasswordRequest): Promise<void> {
  const target = accountOf(input.channel, input.account);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const failure = await deps.db.transaction(async (tx): Promise<ErrorName | null> => {
    const failed = await consumeCode(tx, now, {
      target,
      purpose: 'reset_password',
      code: input.code,
    });
    if (failed) return failed;
    const userId = await findOwnerId(tx, input.channel, target);
    // Codes for unknown addresses are issued but never sent, so this cannot be reached by a real code.
    if (userId === undefined) return 'CODE_INVALID';
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    await revokeSessions(tx, { userId, now, reason: 'password_reset' });
    await lockWithdrawals(tx, userId, now, 'password_reset');
    return null;
  });
  if (failure) throw new AppError(failure);
}

/** Needs the current password; signs out every other device and pauses withdrawals for 24 h. Raises PASSWORD_INCORRECT. */
export async function changePassword(
  deps: AuthDeps,
  auth: AuthContext,
  input: ChangePasswordRequest,
): Promise<void> {
  const [user] = await deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, auth.userId))
    .limit(1);
  if (!user || !(await verify(user.passwordHash, input.oldPassword)))
    throw new AppError('PASSWORD_INCORRECT');
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, auth.userId));
    await revokeSessions(tx, {
      userId: auth.userId,
      now,
      reason: 'password_changed',
      exceptSessionId: auth.sessionId,
    });
    await lockWithdrawals(tx, auth.userId, now, 'password_changed');
  });
}

export async function logout(deps: AuthDeps, auth: AuthContext): Promise<void> {
  await revokeSessions(deps.db, {
    userId: auth.userId,
    now: deps.clock.now(),
    reason: 'signed_out',
    onlySessionId: auth.sessionId,
  });
}

/** Revokes one of the user's own sessions. Raises SESSION_NOT_FOUND for any id that is not theirs. */
export async function revokeSession(
  deps: AuthDeps,
  auth: AuthContext,
  sessionId: number,
): Promise<void> {
  const count = await revokeSessions(deps.db, {
    userId: auth.userId,
    now: deps.clock.now(),
    reason: 'revoked',
    onlySessionId: sessionId,
  });
  if (count === 0) throw new AppError('SESSION_NOT_FOUND');
}

/** Signs out every device but this one; returns how many were signed out. */
export async function revokeOtherSessions(deps: AuthDeps, auth: AuthContext): Promise<number> {
  return revokeSessions(deps.db, {
    userId: auth.userId,
    now: deps.clock.now(),
    reason: 'revoked',
    exceptSessionId: auth.sessionId,
  });
}
