import type { Language } from '@tradewind/contract/languages';
import {
  BONUS_CODE_LIST_MAX,
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
import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { DuplicateEntryError, type Ledger, houseAccount, userAccount } from '../ledger/service.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { users } from '../user/tables.ts';
import { type BonusCodeRow, bonusCodes, bonusRedemptions } from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';

/**
 * Invitations and bonus codes (spec §1, /Invite). Redeeming raises BONUS_CODE_NOT_FOUND,
 * BONUS_CODE_NOT_STARTED, BONUS_CODE_EXPIRED, BONUS_CODE_VERIFIED_ONLY,
 * BONUS_CODE_ALREADY_REDEEMED, BONUS_CODE_EXHAUSTED; creating a code raises BONUS_CODE_EXISTS.
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
 * the checks up should a path ever skip them. A frozen account gets ACCOUNT_FROZEN.
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
  if (now < code.startsAt) throw new AppError('BONUS_CODE_NOT_STARTED', {}, 409);
  if (now >= code.expiresAt) throw new AppError('BONUS_CODE_EXPIRED', {}, 409);
  if (code.verifiedOnly) {
    const [user] = await tx
      .select({ verified: users.verified })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user?.verified) throw new AppError('BONUS_CODE_VERIFIED_ONLY', {}, 403);
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
    entryId = await ledger.post(tx, now, {
      kind: 'bonus_code',
      reference: `bonus_code:${code.id}:${userId}:${n}`,
      userId,
      memo: code.code,
      postings: [
        { account: houseAccount('rewards', asset), amount: -code.amountMinor, type: 'reward' },
        { account: userAccount(userId, 'spot', asset), amount: code.amountMinor, type: 'reward' },
      ],
    });
    await tx
      .insert(bonusRedemptions)
      .values({ codeId: code.id, userId, n, entryId, createdAt: now });
  } catch (error) {
    // Unreachable while the code row is locked; kept so a race can only ever refuse.
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

function toView(row: BonusCodeRow): BonusCodeView {
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
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Creates a bonus code. With an operator (API or `npm run ops`) the creation is audit-logged
 * in the same transaction; the demo seed passes none. Raises BONUS_CODE_EXISTS, and a 422 on
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
        startsAt,
        expiresAt,
        createdBy: operator?.operatorId ?? null,
        createdAt: now,
      })
      .onConflictDoNothing({ target: bonusCodes.code })
      .returning();
    if (!row) throw new AppError('BONUS_CODE_EXISTS', {}, 409);
    const view = toView(row);
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

/** Bonus codes, newest first, with how often each was redeemed. */
export async function listBonusCodes(db: Executor): Promise<BonusCodeView[]> {
  const rows = await db
    .select()
    .from(bonusCodes)
    .orderBy(desc(bonusCodes.id))
    .limit(BONUS_CODE_LIST_MAX);
  return rows.map(toView);
}

/** The demo's bonus code (README): 10 USDT once per user, for a year from seeding. */
export const DEMO_BONUS_CODE = { code: 'WELCOME10', asset: 'USDT', amount: '10' } as const;

export async function seedDemoBonusCode(db: Db, now: Date): Promise<void> {
  await createBonusCode(db, now, null, {
    ...DEMO_BONUS_CODE,
    maxRedemptions: 100_000,
    perUserLimit: 1,
    verifiedOnly: false,
    expiresAt: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
  }).catch((error: unknown) => {
    if (!(error instanceof AppError && error.errorName === 'BONUS_CODE_EXISTS')) throw error;
  });
}
