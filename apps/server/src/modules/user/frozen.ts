import { eq } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { users } from './tables.ts';

/**
 * A frozen account (an operator's decision, with a reason) moves no money: every service
 * through which a user moves money — transfers, conversion, contract orders, withdrawals,
 * card deposits, IEO subscriptions, miner rentals, loan applications and disbursements, bonus codes — calls
 * this guard inside its transaction, before it writes anything (a batch of contract orders
 * reads `frozen_at` in its first statement and refuses those requests one by one).
 *
 * Not guarded, on purpose: loan repayment (it only pays down what the user owes the house,
 * and stopping it would only let overdue interest grow while the account is investigated),
 * and what the platform owes the user for things already done (deposits arriving on chain,
 * settlement of open orders, miner payouts, refunds): refusing those would take the user's
 * money rather than hold it.
 *
 * The read is not locked: a movement that read the row before a freeze committed is
 * ordered before the freeze, as if it had been a moment earlier. Raises ACCOUNT_FROZEN (403).
 */
export async function assertCanMoveMoney(db: Executor, userId: number): Promise<void> {
  const [user] = await db
    .select({ frozenAt: users.frozenAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHORIZED');
  if (user.frozenAt) throw new AppError('ACCOUNT_FROZEN', {}, 403);
}
