import { maskAccountNumber } from '@tradewind/contract/bank-card';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import {
  NETWORKS_BY_ASSET,
  OPEN_WITHDRAWAL_STATUSES,
  WITHDRAWAL_ARRIVAL_HOURS,
  WITHDRAWAL_ASSETS,
  WITHDRAWAL_PAGE_SIZE,
  WITHDRAWAL_STATUS,
  type AdminWithdrawal,
  type Withdrawal,
  type WithdrawalAsset,
  type WithdrawalKind,
  type WithdrawalOptions,
  type WithdrawalStatus,
} from '@tradewind/contract/withdrawal';
import { type SQL, and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Clock } from '#platform/clock.ts';
import type { SharedSettingValues } from '#platform/config.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { Hub } from '#platform/ws.ts';
import { type BankCardRow, bankCards } from '../bank-card/tables.ts';
import { listBankCards } from '../bank-card/service.ts';
import {
  type Ledger,
  type PostingSpec,
  accountName,
  externalAccount,
  getAssetSettings,
  houseAccount,
  userAccount,
  userBalances,
} from '../ledger/service.ts';
import { isMoneyPasswordSet } from '../money-password/service.ts';
import {
  type CreatedMessage,
  type MessageSpec,
  createMessages,
  publishMessages,
} from '../messages/service.ts';
import { assertMayApprove } from '../operator/approval-rule.ts';
import { readSharedSettings } from '../settings/service.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import { isTwoFactorEnabled, withdrawalLock } from '../security/service.ts';
import { users } from '../user/tables.ts';
import { type WithdrawalRow, withdrawals } from './tables.ts';

/**
 * Withdrawals after their request (request.ts): reading, review, completion, failure. Errors
 * this service raises: NOT_FOUND, INVALID_STATE, VALIDATION_FAILED (field `reason`),
 * WITHDRAWAL_TXID_INVALID (field `txid`), APPROVAL_NOT_ALLOWED, WITHDRAWAL_SECOND_APPROVER_SAME (an operator
 * approving twice what needs two approvers).
 * Never a payment to unlock anything (ARCHITECTURE §1): a refusal releases the funds at once.
 */

/** Locked funds the ledger check expects: pending and processing withdrawals hold amount + fee in the user's spot account. */
export async function withdrawalObligations(
  db: Executor,
): Promise<{ account: string; amount: bigint }[]> {
  const rows = await db
    .select({
      userId: withdrawals.userId,
      asset: withdrawals.asset,
      total: sql<string>`sum(${withdrawals.amountMinor} + ${withdrawals.feeMinor})::text`,
    })
    .from(withdrawals)
    .where(inArray(withdrawals.status, [...OPEN_WITHDRAWAL_STATUSES]))
    .groupBy(withdrawals.userId, withdrawals.asset);
  return rows.map((row) => ({
    account: accountName(userAccount(row.userId, 'spot', row.asset as AssetCode)),
    amount: BigInt(row.total),
  }));
}

export interface WithdrawalDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  hub?: Hub;
}

const scaleOf = (asset: string) => ASSETS[asset as AssetCode].scale;

type CardSnapshot = Pick<BankCardRow, 'bankName' | 'accountNumber' | 'holderName'> | null;

export function toWithdrawal(row: WithdrawalRow, card: CardSnapshot): Withdrawal {
  const scale = scaleOf(row.asset);
  return {
    id: String(row.id),
    kind: row.kind as WithdrawalKind,
    asset: row.asset,
    network: row.network,
    address: row.address,
    card: card
      ? {
          bankName: card.bankName,
          accountMasked: maskAccountNumber(card.accountNumber),
          holderName: card.holderName,
        }
      : null,
    amount: formatAmount(row.amountMinor, scale),
    fee: formatAmount(row.feeMinor, scale),
    total: formatAmount(row.amountMinor + row.feeMinor, scale),
    status: row.status as WithdrawalStatus,
    reason: row.reason,
    txid: row.txid,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/* Reading */

export async function withdrawalOptions(
  db: Executor,
  userId: number,
  now: Date,
): Promise<WithdrawalOptions> {
  const [user] = await db
    .select({ verified: users.verified })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const balances = await userBalances(db, userId);
  const assets: WithdrawalOptions['assets'] = [];
  for (const asset of WITHDRAWAL_ASSETS) {
    const settings = await getAssetSettings(db, asset);
    const scale = ASSETS[asset].scale;
    const available =
      balances.find((b) => b.wallet === 'spot' && b.asset === asset)?.available ?? 0n;
    assets.push({
      asset,
      networks: [...NETWORKS_BY_ASSET[asset]],
      decimals: scale,
      minAmount: formatAmount(settings?.withdrawMinMinor ?? 0n, scale),
      fee: formatAmount(settings?.withdrawFeeMinor ?? 0n, scale),
      available: formatAmount(available, scale),
      enabled: settings?.withdrawEnabled ?? false,
    });
  }
  const cards = await listBankCards(db, userId);
  return {
    assets,
    verified: user?.verified ?? false,
    withdrawPasswordSet: await isMoneyPasswordSet(db, userId, 'withdraw'),
    cards: cards.map((card) => ({
      id: String(card.id),
      bankName: card.bankName,
      accountMasked: maskAccountNumber(card.accountNumber),
      holderName: card.holderName,
    })),
    arrivalHours: WITHDRAWAL_ARRIVAL_HOURS,
    twoFactorEnabled: await isTwoFactorEnabled(db, userId),
    withdrawalLock: await withdrawalLock(db, userId, now),
  };
}

function selectWithCards(db: Executor) {
  return db
    .select({
      withdrawal: withdrawals,
      card: {
        bankName: bankCards.bankName,
        accountNumber: bankCards.accountNumber,
        holderName: bankCards.holderName,
      },
    })
    .from(withdrawals)
    .leftJoin(bankCards, eq(bankCards.id, withdrawals.cardId));
}

/**
 * The user's own withdrawals, newest first. The page cursor must be one of the user's own
 * withdrawals (the last of the previous page): any other id is NOT_FOUND, like everywhere.
 */
export async function listWithdrawals(
  db: Executor,
  userId: number,
  query: { kind?: WithdrawalKind | undefined; beforeId?: string | undefined },
) {
  const conditions: SQL[] = [eq(withdrawals.userId, userId)];
  if (query.kind) conditions.push(eq(withdrawals.kind, query.kind));
  if (query.beforeId) {
    const [cursor] = await db
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(and(eq(withdrawals.id, Number(query.beforeId)), eq(withdrawals.userId, userId)))
      .limit(1);
    if (!cursor) throw new AppError('NOT_FOUND');
    conditions.push(lt(withdrawals.id, cursor.id));
  }
  const rows = await selectWithCards(db)
    .where(and(...conditions))
    .orderBy(desc(withdrawals.id))
    .limit(WITHDRAWAL_PAGE_SIZE + 1);
  return {
    items: rows.slice(0, WITHDRAWAL_PAGE_SIZE).map((r) => toWithdrawal(r.withdrawal, r.card)),
    hasMore: rows.length > WITHDRAWAL_PAGE_SIZE,
  };
}

/** One of the user's own withdrawals; any other id is NOT_FOUND. */
export async function getWithdrawal(db: Executor, userId: number, id: number): Promise<Withdrawal> {
  const [row] = await selectWithCards(db)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return toWithdrawal(row.withdrawal, row.card);
}

/* Operators */

export const QUEUE_PAGE_SIZE = 100;

type Thresholds = SharedSettingValues['withdrawalSecondApprovalMinor'];

/** Above its asset's threshold, a withdrawal needs two approvals by different operators. */
function needsSecondApproval(
  row: Pick<WithdrawalRow, 'asset' | 'amountMinor'>,
  thresholds: Thresholds,
): boolean {
  const threshold = thresholds[row.asset as WithdrawalAsset];
  if (threshold === undefined) throw new Error(`no second-approval threshold for ${row.asset}`);
  return row.amountMinor > threshold;
}

const reviewer = alias(operators, 'reviewer');
const firstApprover = alias(operators, 'first_approver');
const secondApprover = alias(operators, 'second_approver');

function adminRows(db: Executor) {
  return db
    .select({
      withdrawal: withdrawals,
      card: bankCards,
      reviewer: reviewer.username,
      firstApprover: firstApprover.username,
      secondApprover: secondApprover.username,
      user: { verified: users.verified, frozenAt: users.frozenAt },
    })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .leftJoin(bankCards, eq(bankCards.id, withdrawals.cardId))
    .leftJoin(reviewer, eq(reviewer.id, withdrawals.reviewedBy))
    .leftJoin(firstApprover, eq(firstApprover.id, withdrawals.firstApprovedBy))
    .leftJoin(secondApprover, eq(secondApprover.id, withdrawals.secondApprovedBy));
}

type AdminRow = Awaited<ReturnType<ReturnType<typeof adminRows>['execute']>>[number];

function toAdminWithdrawal(row: AdminRow, thresholds: Thresholds): AdminWithdrawal {
  const { withdrawal, card } = row;
  const secondApprovalRequired = needsSecondApproval(withdrawal, thresholds);
  return {
    ...toWithdrawal(withdrawal, card),
    uid: String(withdrawal.userId),
    user: {
      uid: String(withdrawal.userId),
      verified: row.user.verified,
      frozen: row.user.frozenAt !== null,
    },
    // Operators pay card withdrawals out, so they see the whole account.
    cardAccountNumber: card?.accountNumber ?? null,
    cardBranch: card ? `${card.branchName} (${card.branchCode})` : null,
    reviewedBy: row.reviewer,
    secondApprovalRequired,
    awaitingSecondApproval:
      withdrawal.status === WITHDRAWAL_STATUS.UNDER_REVIEW && withdrawal.firstApprovedBy !== null,
    firstApprovedBy: row.firstApprover,
    firstApprovedAt: withdrawal.firstApprovedAt?.toISOString() ?? null,
    secondApprovedBy: row.secondApprover,
    secondApprovalThreshold: formatAmount(
      thresholds[withdrawal.asset as WithdrawalAsset],
      scaleOf(withdrawal.asset),
    ),
  };
}

/** Open withdrawals, oldest first: what operators review (under review) and pay out (processing). */
export async function withdrawalQueue(
  deps: Pick<WithdrawalDeps, 'db'>,
  filter: { status?: WithdrawalStatus | undefined; afterId?: string | undefined },
  limit = QUEUE_PAGE_SIZE,
): Promise<AdminWithdrawal[]> {
  const conditions: SQL[] = [
    filter.status
      ? eq(withdrawals.status, filter.status)
      : inArray(withdrawals.status, [...OPEN_WITHDRAWAL_STATUSES]),
  ];
  if (filter.afterId) conditions.push(gt(withdrawals.id, Number(filter.afterId)));
  const rows = await adminRows(deps.db)
    .where(and(...conditions))
    .orderBy(asc(withdrawals.id))
    .limit(limit);
  const { withdrawalSecondApprovalMinor } = await readSharedSettings(deps.db);
  return rows.map((row) => toAdminWithdrawal(row, withdrawalSecondApprovalMinor));
}

async function adminWithdrawal(
  deps: Pick<WithdrawalDeps, 'db'>,
  id: number,
): Promise<AdminWithdrawal> {
  const [row] = await adminRows(deps.db).where(eq(withdrawals.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return toAdminWithdrawal(row, (await readSharedSettings(deps.db)).withdrawalSecondApprovalMinor);
}

function refundPostings(row: WithdrawalRow): PostingSpec[] {
  const account = userAccount(row.userId, 'spot', row.asset as AssetCode);
  const postings: PostingSpec[] = [
    { account, bucket: 'locked', amount: -row.amountMinor, type: 'withdraw_refund' },
    { account, bucket: 'available', amount: row.amountMinor, type: 'withdraw_refund' },
  ];
  if (row.feeMinor > 0n) {
    postings.push(
      { account, bucket: 'locked', amount: -row.feeMinor, type: 'withdraw_refund' },
      { account, bucket: 'available', amount: row.feeMinor, type: 'withdraw_refund' },
    );
  }
  return postings;
}

/** The locked amount leaves to the chain (or the bank); the fee goes to the house. */
function completionPostings(row: WithdrawalRow): PostingSpec[] {
  const asset = row.asset as AssetCode;
  const account = userAccount(row.userId, 'spot', asset);
  const postings: PostingSpec[] = [
    { account, bucket: 'locked', amount: -row.amountMinor, type: 'withdraw' },
    {
      account: externalAccount(row.kind === 'card' ? 'bank' : 'chain', asset),
      amount: row.amountMinor,
      type: 'withdraw',
    },
  ];
  if (row.feeMinor > 0n) {
    postings.push(
      { account, bucket: 'locked', amount: -row.feeMinor, type: 'withdraw_fee' },
      { account: houseAccount('fees', asset), amount: row.feeMinor, type: 'withdraw_fee' },
    );
  }
  return postings;
}

/** A chain transaction id is 64 hex digits (with "0x" on Ethereum); a bank's reference is free-form. */
function normalizeTxid(row: WithdrawalRow, txid: string): string {
  if (row.kind === 'card') return txid;
  const hex = row.network === 'ETH' ? txid.replace(/^0x/i, '') : txid;
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new AppError('WITHDRAWAL_TXID_INVALID', {}, 422, 'txid');
  return row.network === 'ETH' ? `0x${hex.toLowerCase()}` : hex.toLowerCase();
}

/** The message a withdrawal's new status writes to its owner (`withdrawal.<status>`). */
function statusMessage(row: WithdrawalRow): MessageSpec {
  const kind = `withdrawal.${row.status}` as MessageSpec['kind'];
  return {
    userId: row.userId,
    kind,
    ref: `withdrawal:${row.id}`,
    params: {
      amount: formatAmount(row.amountMinor, scaleOf(row.asset)),
      asset: row.asset,
      ...(row.reason ? { reason: row.reason } : {}),
    },
    ...(row.reason ? {} : { keyParams: { reason: 'messages.no_reason' } }),
    link: '/WithdrawalHistory',
  };
}

type Change = Partial<
  Pick<
    WithdrawalRow,
    | 'status'
    | 'reason'
    | 'txid'
    | 'reviewedBy'
    | 'reviewedAt'
    | 'completedAt'
    | 'firstApprovedBy'
    | 'firstApprovedAt'
    | 'secondApprovedBy'
    | 'secondApprovedAt'
  >
>;

/**
 * One operator action: lock the row, check its status (else INVALID_STATE), write the new
 * status, post the ledger entry, and audit — all in one transaction. The entry's unique
 * reference is a second guard: money can move only once per cause. The owner's message about
 * the new status is written in the same transaction and pushed after the commit.
 */
async function act(
  deps: WithdrawalDeps,
  operator: OperatorContext,
  id: number,
  input: {
    action: string | ((row: WithdrawalRow, thresholds: Thresholds) => string);
    from: WithdrawalStatus;
    reason?: string | null;
    change: (row: WithdrawalRow, now: Date, thresholds: Thresholds) => Change;
    /** A check that needs the database (the approval rule), after `change` accepted the row. */
    check?: (tx: Executor, row: WithdrawalRow, now: Date) => Promise<void>;
    entry?: (row: WithdrawalRow) => { reference: string; postings: PostingSpec[] };
  },
): Promise<AdminWithdrawal> {
  const now = deps.clock.now();
  let created: CreatedMessage[] = [];
  const row = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.id, id))
      .for('update');
    if (!current) throw new AppError('NOT_FOUND');
    if (current.status !== input.from) throw new AppError('INVALID_STATE', {}, 409);
    // The install's thresholds, read in the decision's transaction (modules/settings).
    const thresholds = (await readSharedSettings(tx)).withdrawalSecondApprovalMinor;
    const change = input.change(current, now, thresholds);
    await input.check?.(tx, current, now);
    const [updated] = await tx
      .update(withdrawals)
      .set({ ...change, updatedAt: now })
      .where(eq(withdrawals.id, id))
      .returning();
    if (!updated) throw new Error('withdrawal update returned no row');
    const entry = input.entry?.(current);
    if (entry) {
      await deps.ledger.post(tx, now, {
        kind: 'withdrawal',
        reference: entry.reference,
        userId: current.userId,
        memo: change.reason ?? null,
        postings: entry.postings,
      });
    }
    const approvals = (row: WithdrawalRow) => ({
      ...(row.firstApprovedBy !== null && row.status === WITHDRAWAL_STATUS.UNDER_REVIEW
        ? { firstApprovedBy: row.firstApprovedBy }
        : {}),
      ...(row.secondApprovedBy !== null
        ? { firstApprovedBy: row.firstApprovedBy, secondApprovedBy: row.secondApprovedBy }
        : {}),
    });
    await audit(tx, now, operator, {
      action: typeof input.action === 'string' ? input.action : input.action(current, thresholds),
      targetType: 'withdrawal',
      targetId: id,
      before: { status: current.status, ...approvals(current) },
      after: {
        status: updated.status,
        ...approvals(updated),
        ...(updated.txid ? { txid: updated.txid } : {}),
      },
      reason: input.reason ?? null,
    });
    if (updated.status !== current.status)
      created = await createMessages(tx, now, [statusMessage(updated)]);
    return updated;
  });
  deps.hub?.publishToUser(row.userId, {
    type: 'withdrawal',
    id: String(row.id),
    status: row.status,
  });
  publishMessages(deps.hub, created);
  return adminWithdrawal(deps, row.id);
}

/**
 * The approval an operator's "approve" is, on the row as locked: the only one (→ processing),
 * the first of two (stays under review), or the second (→ processing; someone else's than
 * the first). Once anyone has approved first, the next approval is a second one whatever
 * the threshold says now, so nobody ever approves their own approval.
 */
function approval(
  row: WithdrawalRow,
  operator: OperatorContext,
  thresholds: Thresholds,
  now: Date,
): { action: string; change: Change } {
  const processing = {
    status: WITHDRAWAL_STATUS.PROCESSING,
    reviewedBy: operator.operatorId,
    reviewedAt: now,
  } as const;
  if (row.firstApprovedBy !== null) {
    if (row.firstApprovedBy === operator.operatorId)
      throw new AppError('WITHDRAWAL_SECOND_APPROVER_SAME', {}, 409);
    return {
      action: 'withdrawal.approve',
      change: { ...processing, secondApprovedBy: operator.operatorId, secondApprovedAt: now },
    };
  }
  const first = { firstApprovedBy: operator.operatorId, firstApprovedAt: now };
  if (needsSecondApproval(row, thresholds))
    return { action: 'withdrawal.approve_first', change: first };
  return { action: 'withdrawal.approve', change: { ...processing, ...first } };
}

/**
 * approve → processing (above the asset's threshold: after a second operator's approval too);
 * reject → review failed with the reason, funds released at once (also after a first approval).
 */
export function reviewWithdrawal(
  deps: WithdrawalDeps,
  operator: OperatorContext,
  input: { id: number; decision: 'approve' | 'reject'; reason?: string | undefined },
) {
  const reason = input.reason?.trim() || null;
  if (input.decision === 'approve') {
    return act(deps, operator, input.id, {
      action: (row, thresholds) => approval(row, operator, thresholds, deps.clock.now()).action,
      from: WITHDRAWAL_STATUS.UNDER_REVIEW,
      reason,
      change: (row, now, thresholds) => approval(row, operator, thresholds, now).change,
      // The second approver must not be tied to the first by an enrolment (issue 29).
      check: async (tx, row, now) => {
        if (row.firstApprovedBy !== null)
          await assertMayApprove(tx, operator.operatorId, row.firstApprovedBy, now);
      },
    });
  }
  if (!reason) throw new AppError('VALIDATION_FAILED', {}, 422, 'reason');
  return act(deps, operator, input.id, {
    action: 'withdrawal.reject',
    from: WITHDRAWAL_STATUS.UNDER_REVIEW,
    reason,
    change: (_row, now) => ({
      status: WITHDRAWAL_STATUS.REVIEW_FAILED,
      reason,
      reviewedBy: operator.operatorId,
      reviewedAt: now,
    }),
    entry: (row) => ({ reference: `withdrawal:${row.id}:refund`, postings: refundPostings(row) }),
  });
}

/** processing → success with the chain txid: the locked amount leaves, the fee is earned. */
export function completeWithdrawal(
  deps: WithdrawalDeps,
  operator: OperatorContext,
  input: { id: number; txid: string },
) {
  return act(deps, operator, input.id, {
    action: 'withdrawal.complete',
    from: WITHDRAWAL_STATUS.PROCESSING,
    change: (row, now) => ({
      status: WITHDRAWAL_STATUS.SUCCESS,
      txid: normalizeTxid(row, input.txid),
      completedAt: now,
    }),
    entry: (row) => ({
      reference: `withdrawal:${row.id}:complete`,
      postings: completionPostings(row),
    }),
  });
}

/** processing → failed with the reason (the transfer did not go out): funds released at once. */
export function failWithdrawal(
  deps: WithdrawalDeps,
  operator: OperatorContext,
  input: { id: number; reason: string },
) {
  const reason = input.reason.trim();
  if (!reason) throw new AppError('VALIDATION_FAILED', {}, 422, 'reason');
  return act(deps, operator, input.id, {
    action: 'withdrawal.fail',
    from: WITHDRAWAL_STATUS.PROCESSING,
    reason,
    change: (_row, now) => ({ status: WITHDRAWAL_STATUS.FAILED, reason, completedAt: now }),
    entry: (row) => ({ reference: `withdrawal:${row.id}:refund`, postings: refundPostings(row) }),
  });
}
