import { formatAmount, parseAmount } from '@tradewind/contract/money';
import type {
  Adjustment,
  AdjustmentDecision,
  AdjustmentRequest,
  AdjustmentStatus,
} from '@tradewind/contract/user-admin';
import { ASSETS } from '@tradewind/contract/wallet';
import { type SQL, and, desc, eq, lt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { assertMayApprove } from '../operator/approval-rule.ts';
import { type Ledger, houseAccount, userAccount } from '../ledger/service.ts';
import { type CreatedMessage, createMessages } from '../messages/service.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import { balanceAdjustments, users } from './tables.ts';

/**
 * Manual adjustments (issue 7, ARCHITECTURE §1): never a balance edit. One admin asks for a
 * signed amount with a reason the user will read; a different admin approves (or rejects
 * with a reason). Approval posts exactly one `system` ledger entry between the user's account
 * and house:adjustments, whose memo is the reason, so it shows in the user's funds detail.
 */

export const ADJUSTMENT_PAGE_SIZE = 50;

type AdjustmentRow = typeof balanceAdjustments.$inferSelect;

function view(row: AdjustmentRow, requestedBy: string, decidedBy: string | null): Adjustment {
  const scale = ASSETS[row.asset as keyof typeof ASSETS]?.scale ?? 0;
  const sign = row.amountMinor < 0n ? '-' : '';
  const magnitude = row.amountMinor < 0n ? -row.amountMinor : row.amountMinor;
  return {
    id: String(row.id),
    uid: String(row.userId),
    wallet: row.wallet as Adjustment['wallet'],
    asset: row.asset,
    amount: `${sign}${formatAmount(magnitude, scale)}`,
    reason: row.reason,
    status: row.status as AdjustmentStatus,
    requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    entryId: row.entryId === null ? null : String(row.entryId),
  };
}

/** "-12.5" → -12500000n for USDT. Raises AMOUNT_PRECISION (on `amount`) for more decimals than the asset has. */
function signedMinor(text: string, asset: keyof typeof ASSETS): bigint {
  const negative = text.startsWith('-');
  const minor = parseAmount(text.replace(/^[+-]/, ''), ASSETS[asset].scale);
  if (minor === undefined || minor === 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: ASSETS[asset].scale }, 422, 'amount');
  return negative ? -minor : minor;
}

const requester = alias(operators, 'requester');
const decider = alias(operators, 'decider');

async function load(db: Executor, conditions: SQL[], limit: number): Promise<Adjustment[]> {
  const rows = await db
    .select({
      row: balanceAdjustments,
      requestedBy: requester.username,
      decidedBy: decider.username,
    })
    .from(balanceAdjustments)
    .innerJoin(requester, eq(requester.id, balanceAdjustments.requestedBy))
    .leftJoin(decider, eq(decider.id, balanceAdjustments.decidedBy))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(balanceAdjustments.id))
    .limit(limit);
  return rows.map((r) => view(r.row, r.requestedBy, r.decidedBy));
}

/** Records the request (nothing moves yet) and audits it. Raises USER_NOT_FOUND, AMOUNT_PRECISION. */
export async function requestAdjustment(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: AdjustmentRequest,
): Promise<Adjustment> {
  const amountMinor = signedMinor(input.amount, input.asset);
  const userId = Number(input.uid);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) throw new AppError('USER_NOT_FOUND', {}, 404, 'uid');
    const [row] = await tx
      .insert(balanceAdjustments)
      .values({
        userId,
        wallet: input.wallet,
        asset: input.asset,
        amountMinor,
        reason: input.reason,
        requestedBy: operator.operatorId,
        requestedAt: now,
      })
      .returning();
    if (!row) throw new Error('adjustment insert returned no row');
    const created = view(row, operator.username, null);
    await audit(tx, now, operator, {
      action: 'adjustment.request',
      targetType: 'adjustment',
      targetId: row.id,
      after: created,
      reason: input.reason,
    });
    return created;
  });
}

/** Newest first; by default the pending ones (the queue a second admin works through). */
export async function listAdjustments(
  db: Executor,
  query: {
    status?: AdjustmentStatus | undefined;
    uid?: string | undefined;
    cursor?: string | undefined;
  },
  limit = ADJUSTMENT_PAGE_SIZE,
) {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(balanceAdjustments.status, query.status));
  if (query.uid) conditions.push(eq(balanceAdjustments.userId, Number(query.uid)));
  if (query.cursor) conditions.push(lt(balanceAdjustments.id, Number(query.cursor)));
  const items = await load(db, conditions, limit + 1);
  const page = items.slice(0, limit);
  return {
    items: page,
    nextCursor: items.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/**
 * A second admin's decision. The request row is locked and its status checked first, so of
 * two concurrent approvals one posts and the other gets ADJUSTMENT_DECIDED; the entry's
 * reference (`adjustment:<id>`) is unique besides. A debit that would take the user's
 * available balance below zero is refused by the ledger (INSUFFICIENT_BALANCE) and the request
 * stays pending. Raises ADJUSTMENT_NOT_FOUND, ADJUSTMENT_DECIDED, ADJUSTMENT_SELF_APPROVAL
 * (the database's check says the same), APPROVAL_NOT_ALLOWED, INSUFFICIENT_BALANCE.
 */
export async function decideAdjustment(
  db: Db,
  ledger: Ledger,
  now: Date,
  operator: OperatorContext,
  input: AdjustmentDecision,
): Promise<{ adjustment: Adjustment; messages: CreatedMessage[] }> {
  const id = Number(input.id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(balanceAdjustments)
      .where(eq(balanceAdjustments.id, id))
      .for('update');
    if (!row) throw new AppError('ADJUSTMENT_NOT_FOUND', {}, 404);
    if (row.status !== 'pending') throw new AppError('ADJUSTMENT_DECIDED', {}, 409);
    if (row.requestedBy === operator.operatorId)
      throw new AppError('ADJUSTMENT_SELF_APPROVAL', {}, 403);
    // Nor an operator the requester brought in within 7 days, or who brought the requester in.
    if (input.decision === 'approve')
      await assertMayApprove(tx, operator.operatorId, row.requestedBy, now);
    const [who] = await tx
      .select({ username: operators.username })
      .from(operators)
      .where(eq(operators.id, row.requestedBy));
    const before = view(row, who?.username ?? '', null);
    let entryId: number | null = null;
    let messages: CreatedMessage[] = [];
    if (input.decision === 'approve') {
      const asset = row.asset as keyof typeof ASSETS;
      entryId = await ledger.post(tx, now, {
        kind: 'adjustment',
        reference: `adjustment:${row.id}`,
        userId: row.userId,
        memo: row.reason,
        postings: [
          {
            account: userAccount(row.userId, before.wallet, asset),
            amount: row.amountMinor,
            type: 'system',
          },
          { account: houseAccount('adjustments', asset), amount: -row.amountMinor, type: 'system' },
        ],
      });
      // The user reads why their balance moved, in their inbox as well as in the funds detail.
      messages = await createMessages(tx, now, [
        {
          userId: row.userId,
          kind: 'account.adjusted',
          ref: `adjustment:${row.id}`,
          params: {
            amount: before.amount.startsWith('-') ? before.amount : `+${before.amount}`,
            asset: row.asset,
            reason: row.reason,
          },
          keyParams: { wallet: `messages.wallet.${before.wallet}` },
          link: '/WalletDetail',
        },
      ]);
    }
    const [updated] = await tx
      .update(balanceAdjustments)
      .set({
        status: input.decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: operator.operatorId,
        decidedAt: now,
        decisionReason: input.reason ?? null,
        entryId,
      })
      .where(eq(balanceAdjustments.id, id))
      .returning();
    if (!updated) throw new Error('adjustment update returned no row');
    const after = view(updated, before.requestedBy, operator.username);
    await audit(tx, now, operator, {
      action: input.decision === 'approve' ? 'adjustment.approve' : 'adjustment.reject',
      targetType: 'adjustment',
      targetId: row.id,
      before,
      after,
      reason: input.reason ?? null,
    });
    return { adjustment: after, messages };
  });
}
