import { eq } from 'drizzle-orm';
import type { Db } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { revokeSessions } from '../auth/sessions.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { users } from './tables.ts';

export interface FreezeResult {
  uid: string;
  frozenAt: string | null;
  frozenReason: string | null;
  sessionsRevoked: number;
}

/**
 * Freezes (or unfreezes) an account with the operator's reason, in one transaction with its
 * audit entry (before, after, reason). A freeze also signs the user out everywhere: sign-in
 * already refuses a frozen account, and `assertCanMoveMoney` refuses every money movement.
 * Balances are not touched either way. Raises USER_NOT_FOUND, ACCOUNT_ALREADY_FROZEN,
 * ACCOUNT_NOT_FROZEN.
 */
export async function setFrozen(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: { userId: number; frozen: boolean; reason: string },
): Promise<FreezeResult> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ frozenAt: users.frozenAt, frozenReason: users.frozenReason })
      .from(users)
      .where(eq(users.id, input.userId))
      .for('update');
    if (!user) throw new AppError('USER_NOT_FOUND', {}, 404);
    if (input.frozen && user.frozenAt) throw new AppError('ACCOUNT_ALREADY_FROZEN', {}, 409);
    if (!input.frozen && !user.frozenAt) throw new AppError('ACCOUNT_NOT_FROZEN', {}, 409);
    const after = input.frozen
      ? { frozenAt: now, frozenReason: input.reason }
      : { frozenAt: null, frozenReason: null };
    await tx
      .update(users)
      .set({ ...after, updatedAt: now })
      .where(eq(users.id, input.userId));
    const sessionsRevoked = input.frozen
      ? await revokeSessions(tx, { userId: input.userId, now, reason: 'account_frozen' })
      : 0;
    await audit(tx, now, operator, {
      action: input.frozen ? 'user.freeze' : 'user.unfreeze',
      targetType: 'user',
      targetId: input.userId,
      before: { frozenAt: user.frozenAt?.toISOString() ?? null, frozenReason: user.frozenReason },
      after: {
        frozenAt: after.frozenAt?.toISOString() ?? null,
        frozenReason: after.frozenReason,
        sessionsRevoked,
      },
      reason: input.reason,
    });
    return {
      uid: String(input.userId),
      frozenAt: after.frozenAt?.toISOString() ?? null,
      frozenReason: after.frozenReason,
      sessionsRevoked,
    };
  });
}
