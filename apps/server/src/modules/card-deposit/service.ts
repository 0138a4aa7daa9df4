import {
  CARD_DEPOSIT_ASSET,
  CARD_DEPOSIT_PAGE_SIZE,
  type CardDeposit,
  type CardDepositConfig,
  type CardDepositRequest,
  type CardDepositStatus,
  MAX_PENDING_CARD_DEPOSITS,
  cardDepositFee,
} from '@tradewind/contract/card-deposit';
import { formatAmount } from '@tradewind/contract/money';
import type { Decision, QueueUser } from '@tradewind/contract/operator';
import { ASSETS } from '@tradewind/contract/wallet';
import { and, asc, count, desc, eq, gt, lt } from 'drizzle-orm';
import type { Config } from '#platform/config.ts';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type CreatedMessage, createMessages } from '../messages/service.ts';
import { requireOwnFile } from '#platform/files.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import {
  DuplicateEntryError,
  type Ledger,
  type PostingSpec,
  externalAccount,
  houseAccount,
  userAccount,
} from '../ledger/service.ts';
import { withQueueUser, withQueueUsers } from '../operator/queue-user.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { users } from '../user/tables.ts';
import { amountOf } from '../wallet/service.ts';
import { readSharedSettings } from '../settings/service.ts';
import { currentPayee } from './payees.ts';
import { type CardDepositRow, cardDeposits } from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';

const SCALE = ASSETS[CARD_DEPOSIT_ASSET].scale;
const usdt = (minor: bigint) => formatAmount(minor, SCALE);
export const CARD_DEPOSIT_QUEUE_PAGE = 50;

/** What the deposit screen shows: the payee, the fee rule and the limits; or unavailable. */
export async function cardDepositConfig(db: Executor, config: Config): Promise<CardDepositConfig> {
  // Install-wide: every node shows and applies the same fee and limits (modules/settings).
  const { feeBps, minMinor, maxMinor } = (await readSharedSettings(db)).cardDeposit;
  const current = await currentPayee(db, config);
  return {
    available: current !== null,
    demo: current?.demo ?? false,
    asset: CARD_DEPOSIT_ASSET,
    payee: current?.payee ?? null,
    feeBps,
    minAmount: usdt(minMinor),
    maxAmount: usdt(maxMinor),
  };
}

function toDeposit(row: CardDepositRow): CardDeposit {
  return {
    id: String(row.id),
    status: row.status as CardDepositStatus,
    asset: CARD_DEPOSIT_ASSET,
    amount: usdt(row.amountMinor),
    fee: usdt(row.feeMinor),
    actualAmount: usdt(row.actualMinor),
    payee: {
      bank: row.payeeBank,
      cardNumber: row.payeeCardNumber,
      name: row.payeeName,
      phone: row.payeePhone,
    },
    screenshotFileId: String(row.screenshotFileId),
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * Records a reported payment as pending; no money moves. The fee is fixed now (rounded
 * up) so the user is credited exactly what they were shown. Raises
 * CARD_DEPOSIT_UNAVAILABLE, AMOUNT_PRECISION and CARD_DEPOSIT_AMOUNT_RANGE (on `amount`),
 * CARD_DEPOSIT_TOO_MANY_PENDING, and FILE_NOT_FOUND / FILE_WRONG_PURPOSE / FILE_ALREADY_USED
 * (on `screenshotFileId`), ACCOUNT_FROZEN.
 */
export async function createCardDeposit(
  tx: Tx,
  now: Date,
  config: Config,
  userId: number,
  request: CardDepositRequest,
): Promise<CardDeposit> {
  await assertCanMoveMoney(tx, userId);
  const { feeBps, minMinor, maxMinor } = (await readSharedSettings(tx)).cardDeposit;
  const payee = (await currentPayee(tx, config))?.payee;
  if (!payee) throw new AppError('CARD_DEPOSIT_UNAVAILABLE', {}, 503);
  const amountMinor = amountOf(request.amount, CARD_DEPOSIT_ASSET);
  if (amountMinor < minMinor || amountMinor > maxMinor) {
    throw new AppError(
      'CARD_DEPOSIT_AMOUNT_RANGE',
      { min: usdt(minMinor), max: usdt(maxMinor) },
      422,
      'amount',
    );
  }
  const feeMinor = cardDepositFee(amountMinor, feeBps);
  const actualMinor = amountMinor - feeMinor;
  if (actualMinor <= 0n)
    throw new AppError(
      'CARD_DEPOSIT_AMOUNT_RANGE',
      { min: usdt(minMinor), max: usdt(maxMinor) },
      422,
      'amount',
    );

  // The user row lock makes concurrent reports of one user take turns, so the pending cap holds.
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [pending] = await tx
    .select({ n: count() })
    .from(cardDeposits)
    .where(and(eq(cardDeposits.userId, userId), eq(cardDeposits.status, 'pending')));
  if ((pending?.n ?? 0) >= MAX_PENDING_CARD_DEPOSITS)
    throw new AppError('CARD_DEPOSIT_TOO_MANY_PENDING', { max: MAX_PENDING_CARD_DEPOSITS }, 409);

  const screenshot = await requireOwnFile(tx, {
    ownerId: userId,
    id: request.screenshotFileId,
    purpose: 'card_deposit',
    field: 'screenshotFileId',
  });
  const [used] = await tx
    .select({ id: cardDeposits.id })
    .from(cardDeposits)
    .where(eq(cardDeposits.screenshotFileId, screenshot.id))
    .limit(1);
  if (used) throw new AppError('FILE_ALREADY_USED', {}, 422, 'screenshotFileId');
  try {
    const [row] = await tx
      .insert(cardDeposits)
      .values({
        userId,
        status: 'pending',
        asset: CARD_DEPOSIT_ASSET,
        amountMinor,
        feeMinor,
        actualMinor,
        feeBps,
        payeeBank: payee.bank,
        payeeCardNumber: payee.cardNumber,
        payeeName: payee.name,
        payeePhone: payee.phone,
        screenshotFileId: screenshot.id,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('card deposit insert returned no row');
    return toDeposit(row);
  } catch (error) {
    if (isUniqueViolation(error, 'card_deposits_screenshot_key'))
      throw new AppError('FILE_ALREADY_USED', {}, 422, 'screenshotFileId');
    throw error;
  }
}

/** The user's own deposits, newest first; `cursor` is the last id of the previous page. */
export async function listCardDeposits(
  db: Executor,
  userId: number,
  cursor?: string,
  limit = CARD_DEPOSIT_PAGE_SIZE,
): Promise<{ items: CardDeposit[]; nextCursor: string | null }> {
  const rows = await db
    .select()
    .from(cardDeposits)
    .where(
      and(
        eq(cardDeposits.userId, userId),
        cursor ? lt(cardDeposits.id, Number(cursor)) : undefined,
      ),
    )
    .orderBy(desc(cardDeposits.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map(toDeposit),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
  };
}

export type CardDepositQueueItem = CardDeposit & { uid: string; user: QueueUser };

/** Pending deposits, oldest first, after `cursor`. */
export async function listCardDepositQueue(
  db: Executor,
  cursor?: string,
  limit = CARD_DEPOSIT_QUEUE_PAGE,
): Promise<{ items: CardDepositQueueItem[]; nextCursor: string | null }> {
  const rows = await db
    .select()
    .from(cardDeposits)
    .where(
      and(
        eq(cardDeposits.status, 'pending'),
        cursor ? gt(cardDeposits.id, Number(cursor)) : undefined,
      ),
    )
    .orderBy(asc(cardDeposits.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: await withQueueUsers(
      db,
      page.map((row) => ({ ...toDeposit(row), uid: String(row.userId) })),
    ),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
  };
}

/**
 * An operator confirms the payment (one ledger entry: the amount from `external:bank`, the
 * actual amount to the user's spot USDT, the fee to `house:fees`) or rejects it with a
 * reason (nothing moves). Status, entry and audit are one transaction. Raises NOT_FOUND,
 * INVALID_STATE (already decided; two concurrent decisions give one credit: the row lock
 * orders them and the unique ledger reference stands behind it). The user's message (credited
 * or rejected) is written in the same transaction and added to `created`, to push after the commit.
 */
export async function decideCardDeposit(
  db: Db,
  ledger: Ledger,
  now: Date,
  operator: OperatorContext,
  input: Decision & { id: string },
  created: CreatedMessage[] = [],
): Promise<CardDepositQueueItem> {
  return db.transaction(async (tx) => {
    const id = Number(input.id);
    const [before] = await tx
      .select()
      .from(cardDeposits)
      .where(eq(cardDeposits.id, id))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND');
    if (before.status !== 'pending') throw new AppError('INVALID_STATE', {}, 409);
    const approve = input.decision === 'approve';
    let entryId: number | null = null;
    if (approve) {
      const postings: PostingSpec[] = [
        {
          account: externalAccount('bank', CARD_DEPOSIT_ASSET),
          amount: -before.amountMinor,
          type: 'deposit',
        },
        {
          account: userAccount(before.userId, 'spot', CARD_DEPOSIT_ASSET),
          amount: before.actualMinor,
          type: 'deposit',
        },
      ];
      if (before.feeMinor > 0n)
        postings.push({
          account: houseAccount('fees', CARD_DEPOSIT_ASSET),
          amount: before.feeMinor,
          type: 'deposit_fee',
        });
      try {
        entryId = await ledger.post(tx, now, {
          kind: 'card_deposit',
          reference: `card_deposit:${id}:credit`,
          userId: before.userId,
          postings,
        });
      } catch (error) {
        if (error instanceof DuplicateEntryError) throw new AppError('INVALID_STATE', {}, 409);
        throw error;
      }
    }
    const status: CardDepositStatus = approve ? 'paid' : 'rejected';
    const [after] = await tx
      .update(cardDeposits)
      .set({
        status,
        entryId,
        reason: approve ? null : (input.reason ?? null),
        decidedBy: operator.operatorId,
        decidedAt: now,
      })
      .where(and(eq(cardDeposits.id, id), eq(cardDeposits.status, 'pending')))
      .returning();
    if (!after) throw new AppError('INVALID_STATE', {}, 409);
    await audit(tx, now, operator, {
      action: `card_deposit.${input.decision}`,
      targetType: 'card_deposit',
      targetId: id,
      before: {
        status: before.status,
        userId: before.userId,
        amount: usdt(before.amountMinor),
        fee: usdt(before.feeMinor),
        actualAmount: usdt(before.actualMinor),
      },
      after: {
        status,
        ...(entryId !== null ? { entryId, credited: usdt(before.actualMinor) } : {}),
      },
      reason: input.reason ?? null,
    });
    const amount = usdt(approve ? before.actualMinor : before.amountMinor);
    created.push(
      ...(await createMessages(tx, now, [
        {
          userId: before.userId,
          kind: approve ? 'deposit.credited' : 'deposit.rejected',
          ref: `card_deposit:${id}`,
          params: {
            amount,
            asset: CARD_DEPOSIT_ASSET,
            ...(input.reason ? { reason: input.reason } : {}),
          },
          ...(input.reason ? {} : { keyParams: { reason: 'messages.no_reason' } }),
          link: '/RechargeHistory',
        },
      ])),
    );
    return withQueueUser(tx, { ...toDeposit(after), uid: String(after.userId) });
  });
}
