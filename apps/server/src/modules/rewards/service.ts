import {
  REWARD_BUDGET_CHANGES_MAX,
  type RewardBudgetChange,
  type RewardBudgetDecision,
  type RewardBudgetRequest,
  type RewardBudgetStatus,
  type RewardBudgets,
} from '@tradewind/contract/invite';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type Ledger, houseAccount, userAccount } from '../ledger/service.ts';
import { assertMayApprove } from '../operator/approval-rule.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import { readSharedSettings } from '../settings/service.ts';
import { type RewardBudgetRequestRow, rewardBudgetRequests, rewardBudgets } from './tables.ts';

/**
 * Reward budgets (issue 29, ARCHITECTURE §8): the house gives money away only within a budget
 * per asset that two different admins set. `grantReward` is the one way a reward is paid; it
 * draws on the budget in the caller's transaction. Raises REWARD_BUDGET_EXCEEDED,
 * REWARD_BUDGET_REQUEST_NOT_FOUND, REWARD_BUDGET_REQUEST_DECIDED, REWARD_BUDGET_BELOW_GRANTED,
 * APPROVAL_NOT_ALLOWED, AMOUNT_PRECISION.
 */

const scaleOf = (asset: string) => ASSETS[asset as AssetCode]?.scale ?? 0;

function signed(minor: bigint, asset: string): string {
  const magnitude = minor < 0n ? -minor : minor;
  return `${minor < 0n ? '-' : ''}${formatAmount(magnitude, scaleOf(asset))}`;
}

function view(
  row: RewardBudgetRequestRow,
  requestedBy: string | null,
  decidedBy: string | null,
): RewardBudgetChange {
  return {
    id: String(row.id),
    asset: row.asset,
    amount: signed(row.deltaMinor, row.asset),
    reason: row.reason,
    status: row.status as RewardBudgetStatus,
    requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
  };
}

/**
 * Pays one reward inside `tx`: raises the asset's granted total only while it stays within the
 * approved budget (one conditional update, so concurrent grants queue on the budget row and
 * can never overdraw it), then posts the `reward` entry from house:rewards. Beyond the
 * remaining budget: REWARD_BUDGET_EXCEEDED and nothing is posted.
 */
export async function grantReward(
  tx: Tx,
  ledger: Ledger,
  now: Date,
  grant: {
    kind: string;
    reference: string;
    userId: number;
    asset: AssetCode;
    amountMinor: bigint;
    memo?: string;
  },
): Promise<number> {
  if (grant.amountMinor <= 0n) throw new Error('a reward is a positive amount');
  const drawn = await tx
    .update(rewardBudgets)
    .set({
      grantedMinor: sql`${rewardBudgets.grantedMinor} + ${grant.amountMinor}`,
      updatedAt: now,
    })
    .where(
      and(
        eq(rewardBudgets.asset, grant.asset),
        gte(sql`${rewardBudgets.approvedMinor} - ${rewardBudgets.grantedMinor}`, grant.amountMinor),
      ),
    )
    .returning({ asset: rewardBudgets.asset });
  if (drawn.length === 0) throw new AppError('REWARD_BUDGET_EXCEEDED', {}, 409);
  return ledger.post(tx, now, {
    kind: grant.kind,
    reference: grant.reference,
    userId: grant.userId,
    ...(grant.memo ? { memo: grant.memo } : {}),
    postings: [
      { account: houseAccount('rewards', grant.asset), amount: -grant.amountMinor, type: 'reward' },
      {
        account: userAccount(grant.userId, 'spot', grant.asset),
        amount: grant.amountMinor,
        type: 'reward',
      },
    ],
  });
}

const requester = alias(operators, 'requester');
const decider = alias(operators, 'decider');

async function loadChanges(db: Executor, id?: number): Promise<RewardBudgetChange[]> {
  const rows = await db
    .select({
      row: rewardBudgetRequests,
      requestedBy: requester.username,
      decidedBy: decider.username,
    })
    .from(rewardBudgetRequests)
    .leftJoin(requester, eq(requester.id, rewardBudgetRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, rewardBudgetRequests.decidedBy))
    .where(id === undefined ? undefined : eq(rewardBudgetRequests.id, id))
    .orderBy(desc(rewardBudgetRequests.id))
    .limit(REWARD_BUDGET_CHANGES_MAX);
  return rows.map((r) => view(r.row, r.requestedBy, r.decidedBy));
}

/** Every asset's budget (approved, granted, remaining) and the newest changes, pending ones included. */
export async function listRewardBudgets(db: Executor): Promise<RewardBudgets> {
  const rows = await db.select().from(rewardBudgets);
  const thresholds = (await readSharedSettings(db)).bonusCodeApprovalThresholdMinor;
  const byAsset = new Map(rows.map((row) => [row.asset, row]));
  const budgets = (Object.keys(ASSETS) as AssetCode[]).map((asset) => {
    const row = byAsset.get(asset);
    const approved = row?.approvedMinor ?? 0n;
    const granted = row?.grantedMinor ?? 0n;
    const scale = ASSETS[asset].scale;
    return {
      asset,
      approved: formatAmount(approved, scale),
      granted: formatAmount(granted, scale),
      remaining: formatAmount(approved - granted, scale),
      codeApprovalThreshold: formatAmount(thresholds[asset] ?? 0n, scale),
    };
  });
  return { budgets, changes: await loadChanges(db) };
}

/** Records a budget change (nothing moves yet) and audits it. Raises AMOUNT_PRECISION. */
export async function requestRewardBudgetChange(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: RewardBudgetRequest,
): Promise<RewardBudgetChange> {
  const negative = input.amount.startsWith('-');
  const magnitude = parseAmount(input.amount.replace(/^[+-]/, ''), ASSETS[input.asset].scale);
  if (magnitude === undefined || magnitude === 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: ASSETS[input.asset].scale }, 422, 'amount');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(rewardBudgetRequests)
      .values({
        asset: input.asset,
        deltaMinor: negative ? -magnitude : magnitude,
        reason: input.reason,
        requestedBy: operator.operatorId,
        requestedAt: now,
      })
      .returning();
    if (!row) throw new Error('reward budget request insert returned no row');
    const created = view(row, operator.username, null);
    await audit(tx, now, operator, {
      action: 'reward_budget.request',
      targetType: 'reward_budget_request',
      targetId: row.id,
      after: created,
      reason: input.reason,
    });
    return created;
  });
}

/**
 * A second admin's decision. The request row is locked and its status checked first, so of two
 * concurrent approvals one applies and the other gets REWARD_BUDGET_REQUEST_DECIDED. Approval
 * must pass the two-person rule (assertMayApprove). Lowering a budget below what has been
 * paid already is refused (REWARD_BUDGET_BELOW_GRANTED) and the request stays pending.
 */
export async function decideRewardBudgetChange(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: RewardBudgetDecision,
): Promise<RewardBudgetChange> {
  const id = Number(input.id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(rewardBudgetRequests)
      .where(eq(rewardBudgetRequests.id, id))
      .for('update');
    if (!row) throw new AppError('REWARD_BUDGET_REQUEST_NOT_FOUND', {}, 404);
    if (row.status !== 'pending' || row.requestedBy === null)
      throw new AppError('REWARD_BUDGET_REQUEST_DECIDED', {}, 409);
    await assertMayApprove(tx, operator.operatorId, row.requestedBy, now);
    const [before] = await loadChanges(tx, id);
    if (input.decision === 'approve') {
      await tx
        .insert(rewardBudgets)
        .values({ asset: row.asset, updatedAt: now })
        .onConflictDoNothing({ target: rewardBudgets.asset });
      const applied = await tx
        .update(rewardBudgets)
        .set({
          approvedMinor: sql`${rewardBudgets.approvedMinor} + ${row.deltaMinor}`,
          updatedAt: now,
        })
        .where(
          and(
            eq(rewardBudgets.asset, row.asset),
            gte(
              sql`${rewardBudgets.approvedMinor} + ${row.deltaMinor}`,
              rewardBudgets.grantedMinor,
            ),
          ),
        )
        .returning({ asset: rewardBudgets.asset });
      if (applied.length === 0) throw new AppError('REWARD_BUDGET_BELOW_GRANTED', {}, 409);
    }
    await tx
      .update(rewardBudgetRequests)
      .set({
        status: input.decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: operator.operatorId,
        decidedAt: now,
        decisionReason: input.reason ?? null,
      })
      .where(eq(rewardBudgetRequests.id, id));
    const [after] = await loadChanges(tx, id);
    if (!after) throw new Error('reward budget request vanished');
    await audit(tx, now, operator, {
      action: input.decision === 'approve' ? 'reward_budget.approve' : 'reward_budget.reject',
      targetType: 'reward_budget_request',
      targetId: row.id,
      before,
      after,
      reason: input.reason ?? null,
    });
    return after;
  });
}

/**
 * The demo's budget (demo seed only): an approved change with neither requester nor decider,
 * written once, enough for the demo bonus code's every redemption.
 */
export async function seedDemoRewardBudget(
  db: Db,
  now: Date,
  asset: AssetCode,
  amountMinor: bigint,
): Promise<void> {
  const reason = 'Demo mode: the demo bonus code';
  await db.transaction(async (tx) => {
    const [seeded] = await tx
      .select({ id: rewardBudgetRequests.id })
      .from(rewardBudgetRequests)
      .where(and(eq(rewardBudgetRequests.reason, reason), eq(rewardBudgetRequests.asset, asset)))
      .limit(1);
    if (seeded) return;
    await tx.insert(rewardBudgetRequests).values({
      asset,
      deltaMinor: amountMinor,
      reason,
      status: 'approved',
      requestedAt: now,
      decidedAt: now,
    });
    await tx
      .insert(rewardBudgets)
      .values({ asset, approvedMinor: amountMinor, updatedAt: now })
      .onConflictDoUpdate({
        target: rewardBudgets.asset,
        set: {
          approvedMinor: sql`${rewardBudgets.approvedMinor} + ${amountMinor}`,
          updatedAt: now,
        },
      });
  });
}
