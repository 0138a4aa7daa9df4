import type { Language } from '@tradewind/contract/languages';
import {
  BONUS_CODE_LIST_MAX,
  type BonusCodeApprovalStatus,
  type BonusCodeDecision,
  type BonusCodeView,
  type CreateBonusCodeRequest,
  type Invitees,
  type InviteesQuery,
  type InviteSummary,
  type RedeemBonusCodeResult,
  maskContact,
} from '@tradewind/contract/invite';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import crypto from 'node:crypto';
import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { readSharedSettings } from '../settings/service.ts';
import { translate } from '#platform/i18n.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { kycSubmissions } from '../kyc/tables.ts';
import { DuplicateEntryError, type Ledger } from '../ledger/service.ts';
import { assertMayApprove } from '../operator/approval-rule.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import { grantReward, seedDemoRewardBudget } from '../rewards/service.ts';
import { users } from '../user/tables.ts';
import { type BonusCodeRow, bonusCodes, bonusRedemptions } from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';

/**
 * Invitations and bonus codes (spec §1, /Invite). Redeeming raises BONUS_CODE_NOT_FOUND,
 * BONUS_CODE_AWAITING_APPROVAL, BONUS_CODE_WITHDRAWN, BONUS_CODE_NOT_STARTED,
 * BONUS_CODE_EXPIRED, BONUS_CODE_ADDRESS_UNPROVED, BONUS_CODE_VERIFIED_ONLY,
 * BONUS_CODE_ONE_PER_IDENTITY, BONUS_CODE_ALREADY_REDEEMED, BONUS_CODE_EXHAUSTED,
 * REWARD_BUDGET_EXCEEDED; creating a code raises BONUS_CODE_EXISTS; deciding one raises
 * BONUS_CODE_NOT_FOUND, BONUS_CODE_NOT_AWAITING_APPROVAL, APPROVAL_NOT_ALLOWED.
 */

/** The user's own code and how many people registered with it. */
export async function inviteSummary(db: Executor, userId: number): Promise<InviteSummary> {
  const [user] = await db
    .select({ inviteCode: users.inviteCode })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHORIZED');
  const [counts] = await db
    .select({ invited: count(), verified: sql<string>`count(*) filter (where ${users.verified})` })
    .from(users)
    .where(eq(users.inviterId, userId));
  return {
    inviteCode: user.inviteCode,
    invitedCount: Number(counts?.invited ?? 0),
    verifiedCount: Number(counts?.verified ?? 0),
  };
}

/** The people the user invited, newest first, with their contact masked. Only ever the caller's own. */
export async function listInvitees(
  db: Executor,
  userId: number,
  query: InviteesQuery,
): Promise<Invitees> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      phone: users.phone,
      createdAt: users.createdAt,
      verified: users.verified,
    })
    .from(users)
    .where(
      and(
        eq(users.inviterId, userId),
        query.cursor ? lt(users.id, Number(query.cursor)) : undefined,
      ),
    )
    .orderBy(desc(users.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      contact: maskContact(row.email ?? row.phone ?? ''),
      joinedAt: row.createdAt.toISOString(),
      verified: row.verified,
    })),
    nextCursor: rows.length > query.limit && last ? String(last.id) : null,
  };
}

/**
 * Redeems a bonus code for the user inside `tx` (the request's idempotency transaction):
 * one `reward` entry from `house:rewards` to the user's spot account, one redemption row,
 * the code's counter up by one. The code row is locked first, so redemptions of one code
 * queue behind each other and every limit is checked against committed counts; the
 * database's constraints (counter ≤ total, unique (code, user, n), n ≤ per-user limit) back
 * back the checks up should a path ever skip them. A frozen account gets ACCOUNT_FROZEN.
 * The reward is paid by `grantReward`, so it draws on the asset's approved reward budget in
 * the same transaction (issue 29): beyond it, REWARD_BUDGET_EXCEEDED and nothing moves.
 */
export async function redeemBonusCode(
  tx: Tx,
  ledger: Ledger,
  now: Date,
  userId: number,
  rawCode: string,
  language: Language,
): Promise<RedeemBonusCodeResult> {
  await assertCanMoveMoney(tx, userId);
  const [code] = await tx
    .select()
    .from(bonusCodes)
    .where(eq(bonusCodes.code, rawCode))
    .for('update');
  if (!code) throw new AppError('BONUS_CODE_NOT_FOUND', {}, 404);
  if (code.approvalStatus === 'pending')
    throw new AppError('BONUS_CODE_AWAITING_APPROVAL', {}, 409);
  if (code.approvalStatus !== 'approved') throw new AppError('BONUS_CODE_WITHDRAWN', {}, 409);
  if (now < code.startsAt) throw new AppError('BONUS_CODE_NOT_STARTED', {}, 409);
  if (now >= code.expiresAt) throw new AppError('BONUS_CODE_EXPIRED', {}, 409);
  const [user] = await tx
    .select({
      verified: users.verified,
      proved: sql<boolean>`(${users.email} is not null and ${users.emailVerified}) or (${users.phone} is not null and ${users.phoneVerified})`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  // Rewards are for accounts whose owner proved the address (issue 29): never for a squatter.
  if (!user?.proved) throw new AppError('BONUS_CODE_ADDRESS_UNPROVED', {}, 403);
  if (code.verifiedOnly && !user.verified) throw new AppError('BONUS_CODE_VERIFIED_ONLY', {}, 403);
  let identityKey: string | null = null;
  if (code.onePerIdentity) {
    identityKey = await verifiedIdentity(tx, userId);
    if (!identityKey) throw new AppError('BONUS_CODE_VERIFIED_ONLY', {}, 403);
    const [taken] = await tx
      .select({ id: bonusRedemptions.id })
      .from(bonusRedemptions)
      .where(
        and(eq(bonusRedemptions.codeId, code.id), eq(bonusRedemptions.identityKey, identityKey)),
      )
      .limit(1);
    if (taken) throw new AppError('BONUS_CODE_ONE_PER_IDENTITY', {}, 409);
  }
  const [mine] = await tx
    .select({ n: count() })
    .from(bonusRedemptions)
    .where(and(eq(bonusRedemptions.codeId, code.id), eq(bonusRedemptions.userId, userId)));
  const n = Number(mine?.n ?? 0) + 1;
  if (n > code.perUserLimit) throw new AppError('BONUS_CODE_ALREADY_REDEEMED', {}, 409);
  if (code.redeemedCount >= code.maxRedemptions)
    throw new AppError('BONUS_CODE_EXHAUSTED', {}, 409);

  const asset = code.asset as AssetCode;
  let entryId: number;
  try {
    entryId = await grantReward(tx, ledger, now, {
      kind: 'bonus_code',
      reference: `bonus_code:${code.id}:${userId}:${n}`,
      userId,
      asset,
      amountMinor: code.amountMinor,
      memo: code.code,
    });
    await tx
      .insert(bonusRedemptions)
      .values({ codeId: code.id, userId, n, entryId, identityKey, createdAt: now });
  } catch (error) {
    // Unreachable while the code row is locked; kept so a race can only ever refuse.
    if (isUniqueViolation(error, 'bonus_redemptions_code_identity_key'))
      throw new AppError('BONUS_CODE_ONE_PER_IDENTITY', {}, 409);
    if (
      error instanceof DuplicateEntryError ||
      isUniqueViolation(error, 'bonus_redemptions_code_user_n_key')
    )
      throw new AppError('BONUS_CODE_ALREADY_REDEEMED', {}, 409);
    throw error;
  }
  const bumped = await tx
    .update(bonusCodes)
    .set({ redeemedCount: sql`${bonusCodes.redeemedCount} + 1` })
    .where(and(eq(bonusCodes.id, code.id), lt(bonusCodes.redeemedCount, bonusCodes.maxRedemptions)))
    .returning({ id: bonusCodes.id });
  if (bumped.length === 0) throw new AppError('BONUS_CODE_EXHAUSTED', {}, 409);

  const amount = formatAmount(code.amountMinor, ASSETS[asset].scale);
  return {
    code: code.code,
    asset,
    amount,
    message: translate(language, 'invite.reward_received', { amount, asset }),
  };
}

/**
 * The user's verified identity: their approved KYC document (country, type, number, with case,
 * spaces and dashes ignored), hashed so the redemption row holds no document number. Null
 * without an approved submission.
 */
async function verifiedIdentity(db: Executor, userId: number): Promise<string | null> {
  const [kyc] = await db
    .select({
      country: kycSubmissions.country,
      documentType: kycSubmissions.documentType,
      documentNumber: kycSubmissions.documentNumber,
    })
    .from(kycSubmissions)
    .where(and(eq(kycSubmissions.userId, userId), eq(kycSubmissions.status, 'approved')))
    .orderBy(desc(kycSubmissions.id))
    .limit(1);
  if (!kyc) return null;
  const number = kyc.documentNumber.toUpperCase().replace(/[\s-]/g, '');
  return crypto
    .createHash('sha256')
    .update(`${kyc.country.toUpperCase()}|${kyc.documentType}|${number}`)
    .digest('hex');
}

const creator = alias(operators, 'creator');
const approver = alias(operators, 'approver');

type BonusCodeJoined = { row: BonusCodeRow; createdBy: string | null; approvedBy: string | null };

function toView({ row, createdBy, approvedBy }: BonusCodeJoined): BonusCodeView {
  const asset = row.asset as AssetCode;
  return {
    id: String(row.id),
    code: row.code,
    asset,
    amount: formatAmount(row.amountMinor, ASSETS[asset].scale),
    maxRedemptions: row.maxRedemptions,
    perUserLimit: row.perUserLimit,
    redeemedCount: row.redeemedCount,
    startsAt: row.startsAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    verifiedOnly: row.verifiedOnly,
    onePerIdentity: row.onePerIdentity,
    total: formatAmount(row.amountMinor * BigInt(row.maxRedemptions), ASSETS[asset].scale),
    approvalStatus: row.approvalStatus as BonusCodeApprovalStatus,
    createdBy,
    approvedBy,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    createdAt: row.createdAt.toISOString(),
  };
}

async function loadCodes(db: Executor, id?: number): Promise<BonusCodeView[]> {
  const rows = await db
    .select({ row: bonusCodes, createdBy: creator.username, approvedBy: approver.username })
    .from(bonusCodes)
    .leftJoin(creator, eq(creator.id, bonusCodes.createdBy))
    .leftJoin(approver, eq(approver.id, bonusCodes.approvedBy))
    .where(id === undefined ? undefined : eq(bonusCodes.id, id))
    .orderBy(desc(bonusCodes.id))
    .limit(BONUS_CODE_LIST_MAX);
  return rows.map(toView);
}

/**
 * Creates a bonus code. With an operator (API or `npm run ops`) the creation is audit-logged
 * in the same transaction; the demo seed passes none. A code whose total (amount × max
 * redemptions) is above the asset's threshold is created `pending`: nobody can redeem it until
 * a different admin approves it (`decideBonusCode`). Raises BONUS_CODE_EXISTS, and a 422 on
 * the amount when it has more decimals than the asset allows.
 */
export async function createBonusCode(
  db: Db,
  now: Date,
  operator: OperatorContext | null,
  input: CreateBonusCodeRequest,
): Promise<BonusCodeView> {
  const amountMinor = parseAmount(input.amount, ASSETS[input.asset].scale);
  if (amountMinor === undefined || amountMinor <= 0n)
    throw new AppError('VALIDATION_FAILED', {}, 422, 'amount');
  const startsAt = input.startsAt ? new Date(input.startsAt) : now;
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt <= startsAt) throw new AppError('VALIDATION_FAILED', {}, 422, 'expiresAt');
  const totalMinor = amountMinor * BigInt(input.maxRedemptions);
  // The demo seed (no operator) is the one creator whose code needs nobody's approval.
  // The install's threshold (modules/settings), the same on every node.
  const thresholds = (await readSharedSettings(db)).bonusCodeApprovalThresholdMinor;
  const approvalStatus: BonusCodeApprovalStatus =
    operator && totalMinor > (thresholds[input.asset] ?? 0n) ? 'pending' : 'approved';
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bonusCodes)
      .values({
        code: input.code,
        asset: input.asset,
        amountMinor,
        maxRedemptions: input.maxRedemptions,
        perUserLimit: input.perUserLimit,
        verifiedOnly: input.verifiedOnly,
        onePerIdentity: input.onePerIdentity,
        approvalStatus,
        startsAt,
        expiresAt,
        createdBy: operator?.operatorId ?? null,
        createdAt: now,
      })
      .onConflictDoNothing({ target: bonusCodes.code })
      .returning();
    if (!row) throw new AppError('BONUS_CODE_EXISTS', {}, 409);
    const view = toView({ row, createdBy: operator?.username ?? null, approvedBy: null });
    if (operator)
      await audit(tx, now, operator, {
        action: 'bonus_code.create',
        targetType: 'bonus_code',
        targetId: row.id,
        after: view,
        reason: input.reason ?? null,
      });
    return view;
  });
}

/** Bonus codes, newest first, with how often each was redeemed and their approval state. */
export async function listBonusCodes(db: Executor): Promise<BonusCodeView[]> {
  return loadCodes(db);
}

/**
 * A second admin's decision on a code waiting for approval. The code row is locked and its
 * state checked first, so of two concurrent decisions one acts and the other gets
 * BONUS_CODE_NOT_AWAITING_APPROVAL; the creator (or anyone the two-person rule ties to them)
 * gets APPROVAL_NOT_ALLOWED. Audited.
 */
export async function decideBonusCode(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: BonusCodeDecision,
): Promise<BonusCodeView> {
  const id = Number(input.id);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(bonusCodes).where(eq(bonusCodes.id, id)).for('update');
    if (!row) throw new AppError('BONUS_CODE_NOT_FOUND', {}, 404);
    if (row.approvalStatus !== 'pending' || row.createdBy === null)
      throw new AppError('BONUS_CODE_NOT_AWAITING_APPROVAL', {}, 409);
    await assertMayApprove(tx, operator.operatorId, row.createdBy, now);
    const [before] = await loadCodes(tx, id);
    await tx
      .update(bonusCodes)
      .set({
        approvalStatus: input.decision === 'approve' ? 'approved' : 'rejected',
        approvedBy: operator.operatorId,
        approvedAt: now,
        decisionReason: input.reason ?? null,
      })
      .where(eq(bonusCodes.id, id));
    const [after] = await loadCodes(tx, id);
    if (!after) throw new Error('bonus code vanished');
    await audit(tx, now, operator, {
      action: input.decision === 'approve' ? 'bonus_code.approve' : 'bonus_code.reject',
      targetType: 'bonus_code',
      targetId: id,
      before,
      after,
      reason: input.reason ?? null,
    });
    return after;
  });
}

/** The demo's bonus code (README): 10 USDT once per user, for a year from seeding. */
export const DEMO_BONUS_CODE = { code: 'WELCOME10', asset: 'USDT', amount: '10' } as const;

const DEMO_BONUS_CODE_REDEMPTIONS = 100_000;

/**
 * The demo code and a budget for all its redemptions (demo mode only, like the demo account):
 * the demo has no second admin, so its budget is written approved, marked as the demo's. The
 * code is open to unverified (but proved) accounts so that trying the demo stays easy.
 */
export async function seedDemoBonusCode(db: Db, now: Date): Promise<void> {
  const asset = DEMO_BONUS_CODE.asset;
  const amountMinor = parseAmount(DEMO_BONUS_CODE.amount, ASSETS[asset].scale) as bigint;
  await seedDemoRewardBudget(db, now, asset, amountMinor * BigInt(DEMO_BONUS_CODE_REDEMPTIONS));
  await createBonusCode(db, now, null, {
    ...DEMO_BONUS_CODE,
    maxRedemptions: DEMO_BONUS_CODE_REDEMPTIONS,
    perUserLimit: 1,
    verifiedOnly: false,
    onePerIdentity: false,
    expiresAt: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
  }).catch((error: unknown) => {
    if (!(error instanceof AppError && error.errorName === 'BONUS_CODE_EXISTS')) throw error;
  });
}
