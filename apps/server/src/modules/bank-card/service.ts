import {
  type AddBankCardRequest,
  BANK_CARD_MAX,
  type BankCard,
  isHolderNameOf,
  maskAccountNumber,
} from '@tradewind/contract/bank-card';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { requireKyc, verifiedIdentity } from '../kyc/service.ts';
import { type BankCardRow, bankCards } from './tables.ts';

/**
 * Bank cards (spec /Card, /AddCard). Raises KYC_REQUIRED, BANK_CARD_NAME_MISMATCH (field),
 * BANK_CARD_LIMIT, BANK_CARD_EXISTS (field), NOT_FOUND.
 */

export function toBankCard(row: BankCardRow): BankCard {
  return {
    id: String(row.id),
    bankName: row.bankName,
    accountMasked: maskAccountNumber(row.accountNumber),
    branchName: row.branchName,
    branchCode: row.branchCode,
    holderName: row.holderName,
    createdAt: row.createdAt.toISOString(),
  };
}

const active = (userId: number) => and(eq(bankCards.userId, userId), isNull(bankCards.deletedAt));

export async function listBankCards(db: Executor, userId: number): Promise<BankCardRow[]> {
  return db.select().from(bankCards).where(active(userId)).orderBy(asc(bankCards.id));
}

/** One of the user's linked cards, or undefined: another user's card is never returned. */
export async function findBankCard(
  db: Executor,
  userId: number,
  id: number,
): Promise<BankCardRow | undefined> {
  const [row] = await db
    .select()
    .from(bankCards)
    .where(and(eq(bankCards.id, id), active(userId)))
    .limit(1);
  return row;
}

/** Any card by id, deleted or not (a withdrawal shows the card it went to). */
export async function bankCardById(db: Executor, id: number): Promise<BankCardRow | undefined> {
  const [row] = await db.select().from(bankCards).where(eq(bankCards.id, id)).limit(1);
  return row;
}

/**
 * Links a card in the user's own name: only a verified user, and only with the holder name of
 * their approved identity (`isHolderNameOf`: case, spacing and name order aside), so money is
 * never paid out to an account in someone else's name.
 */
export async function addBankCard(
  db: Db,
  now: Date,
  userId: number,
  input: AddBankCardRequest,
): Promise<BankCardRow> {
  return db
    .transaction(async (tx) => {
      // One add at a time per user, so two concurrent adds cannot both pass the count.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bank-card:${userId}`}))`);
      await requireKyc(tx, userId);
      const identity = await verifiedIdentity(tx, userId);
      if (!identity || !isHolderNameOf(input.holderName, identity)) {
        const name = identity ? `${identity.firstName} ${identity.lastName}` : '—';
        throw new AppError('BANK_CARD_NAME_MISMATCH', { name }, 422, 'holderName');
      }
      const [linked] = await tx.select({ n: count() }).from(bankCards).where(active(userId));
      if ((linked?.n ?? 0) >= BANK_CARD_MAX)
        throw new AppError('BANK_CARD_LIMIT', { max: BANK_CARD_MAX }, 409);
      const [row] = await tx
        .insert(bankCards)
        .values({ userId, ...input, createdAt: now })
        .returning();
      if (!row) throw new Error('bank card insert returned no row');
      return row;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'bank_cards_user_account_key'))
        throw new AppError('BANK_CARD_EXISTS', {}, 409, 'accountNumber');
      throw error;
    });
}

/** Unlinks one of the user's own cards; any other id is NOT_FOUND. */
export async function deleteBankCard(
  db: Executor,
  now: Date,
  userId: number,
  id: number,
): Promise<void> {
  const deleted = await db
    .update(bankCards)
    .set({ deletedAt: now })
    .where(and(eq(bankCards.id, id), active(userId)))
    .returning({ id: bankCards.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND');
}
