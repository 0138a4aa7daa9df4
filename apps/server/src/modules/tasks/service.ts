import type { Language } from '@tradewind/contract/languages';
import { parseAmount } from '@tradewind/contract/money';
import {
  type ClaimTaskResult,
  TASKS,
  TASK_IDS,
  TASK_STREAK_DAYS,
  type Task,
  type TaskId,
  type TaskReward,
  type Tasks,
  clampProgress,
} from '@tradewind/contract/tasks';
import { ASSETS } from '@tradewind/contract/wallet';
import { and, eq, sql } from 'drizzle-orm';
import { type Executor, type Tx, queryRows } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { cardDeposits } from '../card-deposit/tables.ts';
import { contractOrders } from '../contracts/tables.ts';
import { deposits } from '../deposit/tables.ts';
import type { Ledger } from '../ledger/service.ts';
import {
  addPointsEvent,
  bestStreak,
  lockPoints,
  pointsBalance,
  streakNow,
} from '../points/service.ts';
import { grantReward } from '../rewards/service.ts';
import { rewardBudgets } from '../rewards/tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import { users } from '../user/tables.ts';
import { taskClaims } from './tables.ts';

/**
 * The rewards centre's tasks (issue 32). Progress comes from what the user really did (check-in
 * streak, KYC, paid deposits, contract orders, verified invitees); nobody can set it. A claim pays
 * once: points as a points event, money through `grantReward` from the approved reward budget.
 * Raises TASK_UNAVAILABLE (already claimed, not verified, budget spent) and TASK_NOT_COMPLETE.
 */

interface Facts {
  streak: number;
  verified: boolean;
  deposited: boolean;
  traded: boolean;
  invitedVerified: boolean;
}

async function exists(db: Executor, query: ReturnType<typeof sql>): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(db, sql`select exists (${query}) as found`);
  return Boolean(row?.found);
}

async function facts(db: Executor, now: Date, userId: number): Promise<Facts> {
  const [user] = await db
    .select({ verified: users.verified })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const best = await bestStreak(db, userId);
  return {
    // A 7-day run once made stays done, even if the streak broke since.
    streak: best >= TASK_STREAK_DAYS ? best : await streakNow(db, now, userId),
    verified: user?.verified ?? false,
    deposited:
      (await exists(
        db,
        sql`select 1 from ${deposits} where ${deposits.userId} = ${userId} and ${deposits.status} = 'paid'`,
      )) ||
      (await exists(
        db,
        sql`select 1 from ${cardDeposits} where ${cardDeposits.userId} = ${userId} and ${cardDeposits.status} = 'paid'`,
      )),
    traded: await exists(
      db,
      sql`select 1 from ${contractOrders} where ${contractOrders.userId} = ${userId}`,
    ),
    invitedVerified: await exists(
      db,
      sql`select 1 from ${users} where ${users.inviterId} = ${userId} and ${users.verified}`,
    ),
  };
}

function steps(task: TaskId, f: Facts): { done: number; target: number } {
  switch (task) {
    case 'checkin_streak':
      return { done: Math.min(f.streak, TASK_STREAK_DAYS), target: TASK_STREAK_DAYS };
    case 'kyc_verified':
      return { done: f.verified ? 1 : 0, target: 1 };
    case 'first_deposit':
      return { done: f.deposited ? 1 : 0, target: 1 };
    case 'first_trade':
      return { done: f.traded ? 1 : 0, target: 1 };
    case 'invite_verified':
      return { done: f.invitedVerified ? 1 : 0, target: 1 };
  }
}

function rewardView(reward: TaskReward): Task['reward'] {
  return reward.kind === 'points'
    ? { kind: 'points', amount: String(reward.points), asset: null }
    : { kind: 'asset', amount: reward.amount, asset: reward.asset };
}

function rewardMinor(reward: Extract<TaskReward, { kind: 'asset' }>): bigint {
  const minor = parseAmount(reward.amount, ASSETS[reward.asset].scale);
  if (minor === undefined || minor <= 0n) throw new Error(`bad task reward ${reward.amount}`);
  return minor;
}

async function remainingBudget(db: Executor): Promise<Map<string, bigint>> {
  const rows = await db.select().from(rewardBudgets);
  return new Map(rows.map((row) => [row.asset, row.approvedMinor - row.grantedMinor]));
}

/** Every task with its progress (0–100) and whether the user can claim it now. */
export async function listTasks(db: Executor, now: Date, userId: number): Promise<Tasks> {
  const f = await facts(db, now, userId);
  const claimed = new Set(
    (
      await db
        .select({ task: taskClaims.task })
        .from(taskClaims)
        .where(eq(taskClaims.userId, userId))
    ).map((row) => row.task),
  );
  const budget = await remainingBudget(db);
  const items = TASK_IDS.map((id): Task => {
    const definition = TASKS[id];
    const { done, target } = steps(id, f);
    const progress = clampProgress((done * 100) / target);
    const reward = definition.reward;
    let status: Task['status'];
    if (claimed.has(id)) status = 'claimed';
    else if (progress < 100) status = 'in_progress';
    else if (definition.requiresVerified && !f.verified) status = 'unavailable';
    else if (reward.kind === 'asset' && (budget.get(reward.asset) ?? 0n) < rewardMinor(reward))
      status = 'unavailable';
    else status = 'claimable';
    return {
      id,
      progress,
      done,
      target,
      status,
      requiresVerified: definition.requiresVerified,
      reward: rewardView(reward),
    };
  });
  return { items, points: await pointsBalance(db, userId), verified: f.verified };
}

/**
 * Claims a finished task inside `tx` (the request's idempotency transaction). The user's row is
 * locked first, so claims of one user queue and the second finds the first's claim row; the
 * unique (user_id, task) key backs that up. Nothing is paid unless the claim row is written.
 */
export async function claimTask(
  tx: Tx,
  ledger: Ledger,
  now: Date,
  userId: number,
  task: TaskId,
  language: Language,
): Promise<ClaimTaskResult> {
  await lockPoints(tx, userId);
  const [taken] = await tx
    .select({ id: taskClaims.id })
    .from(taskClaims)
    .where(and(eq(taskClaims.userId, userId), eq(taskClaims.task, task)))
    .limit(1);
  if (taken) throw new AppError('TASK_UNAVAILABLE', {}, 409);
  const f = await facts(tx, now, userId);
  const { done, target } = steps(task, f);
  if (done < target) throw new AppError('TASK_NOT_COMPLETE', {}, 409);
  const definition = TASKS[task];
  if (definition.requiresVerified && !f.verified) throw new AppError('TASK_UNAVAILABLE', {}, 403);
  const reward = definition.reward;
  let paid: { pointsEventId: number | null; entryId: number | null };
  if (reward.kind === 'points') {
    paid = {
      pointsEventId: await addPointsEvent(tx, now, {
        userId,
        kind: 'task_reward',
        amount: reward.points,
      }),
      entryId: null,
    };
  } else {
    await assertCanMoveMoney(tx, userId);
    try {
      const entryId = await grantReward(tx, ledger, now, {
        kind: 'reward',
        reference: `task:${task}:${userId}`,
        userId,
        asset: reward.asset,
        amountMinor: rewardMinor(reward),
        memo: task,
      });
      paid = { pointsEventId: null, entryId };
    } catch (error) {
      // A spent budget is an activity the user cannot join now (spec §8), not a failure.
      if (error instanceof AppError && error.errorName === 'REWARD_BUDGET_EXCEEDED')
        throw new AppError('TASK_UNAVAILABLE', {}, 409);
      throw error;
    }
  }
  try {
    await tx.insert(taskClaims).values({ userId, task, ...paid, createdAt: now });
  } catch (error) {
    if (isUniqueViolation(error, 'task_claims_user_task_key'))
      throw new AppError('TASK_UNAVAILABLE', {}, 409);
    throw error;
  }
  return {
    task,
    reward: rewardView(reward),
    message: translate(language, 'tasks.reward_received'),
  };
}
