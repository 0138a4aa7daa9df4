import crypto from 'node:crypto';
import type { SessionResponse } from '@tradewind/contract/auth';
import type { ErrorName } from '@tradewind/contract/errors';
import type { LoginChallenge, LoginSecondStepRequest } from '@tradewind/contract/security';
import { eq } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type SessionMeta, createSession, hashToken } from '../auth/sessions.ts';
import { users } from '../user/tables.ts';
import { checkSignInSecondFactor, recordSignIn } from './service.ts';
import { loginChallenges } from './tables.ts';

/** Five minutes to type the code; five wrong codes end the challenge (the password step starts again). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_ATTEMPTS = 5;

/** The password was right and two-factor is on: no session yet, a ticket for the code step. */
export async function createLoginChallenge(
  db: Db,
  input: { userId: number; now: Date },
): Promise<LoginChallenge> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(input.now.getTime() + CHALLENGE_TTL_MS);
  await db
    .insert(loginChallenges)
    .values({ userId: input.userId, tokenHash: hashToken(token), createdAt: input.now, expiresAt });
  return { twoFactorRequired: true, challenge: token, expiresAt: expiresAt.toISOString() };
}

/**
 * Step 2 of a sign-in with two-factor on: an authenticator code or a recovery code turns
 * the challenge into a session. Raises LOGIN_CHALLENGE_INVALID (unknown, used, expired or
 * out of attempts), ACCOUNT_FROZEN, TWO_FACTOR_CODE_INVALID / TWO_FACTOR_CODE_REUSED (field
 * `code`). A wrong code is counted and recorded in the sign-in history.
 */
export async function completeLogin(
  deps: { db: Db; clock: Clock; config: { sessionTtlMs: number } },
  input: LoginSecondStepRequest,
  meta: SessionMeta,
): Promise<SessionResponse> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx): Promise<SessionResponse | ErrorName> => {
    const [challenge] = await tx
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.tokenHash, hashToken(input.challenge)))
      .for('update');
    if (
      !challenge ||
      challenge.consumedAt ||
      challenge.expiresAt.getTime() <= now.getTime() ||
      challenge.attempts >= CHALLENGE_MAX_ATTEMPTS
    ) {
      return 'LOGIN_CHALLENGE_INVALID';
    }
    const [user] = await tx
      .select({ frozenAt: users.frozenAt })
      .from(users)
      .where(eq(users.id, challenge.userId))
      .limit(1);
    if (!user || user.frozenAt) return 'ACCOUNT_FROZEN';
    const checked = await checkSignInSecondFactor(tx, challenge.userId, input.code, now);
    if ('error' in checked) {
      await tx
        .update(loginChallenges)
        .set({ attempts: challenge.attempts + 1 })
        .where(eq(loginChallenges.id, challenge.id));
      await recordSignIn(tx, {
        userId: challenge.userId,
        result: 'wrong_code',
        method: /^\d{6}$/.test(input.code) ? 'totp' : 'recovery_code',
        ...meta,
        now,
      });
      return checked.error;
    }
    await tx
      .update(loginChallenges)
      .set({ consumedAt: now })
      .where(eq(loginChallenges.id, challenge.id));
    await recordSignIn(tx, {
      userId: challenge.userId,
      result: 'success',
      method: checked.method,
      ...meta,
      now,
    });
    return createSession(tx, {
      userId: challenge.userId,
      now,
      ttlMs: deps.config.sessionTtlMs,
      meta,
    });
  });
  if (typeof outcome !== 'string') return outcome;
  if (outcome === 'TWO_FACTOR_CODE_INVALID' || outcome === 'TWO_FACTOR_CODE_REUSED')
    throw new AppError(outcome, {}, 422, 'code');
  throw new AppError(outcome, {}, outcome === 'ACCOUNT_FROZEN' ? 403 : 400);
}
