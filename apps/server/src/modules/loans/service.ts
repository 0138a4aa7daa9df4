import type { Language } from '@tradewind/contract/languages';
import {
  LOAN_ASSET,
  LOAN_DAY_MS,
  LOAN_OVERDUE_MAX_DAYS,
  LOAN_PAGE_SIZE,
  LOAN_PRODUCTS_MAX,
  LOAN_STATUS,
  type Loan,
  type LoanApplyRequest,
  type LoanDecideRequest,
  type LoanMethod,
  type LoanProduct,
  interestOf,
  loanRateText,
  loanStatusName,
} from '@tradewind/contract/loans';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';
import { type SQL, and, asc, desc, eq, gt, inArray, lt, lte } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { requireOwnFile } from '#platform/files.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { recordCreditEvent } from '../credit/service.ts';
import {
  DuplicateEntryError,
  type Ledger,
  type PostingSpec,
  houseAccount,
  userAccount,
} from '../ledger/service.ts';
import { type CreatedMessage, type MessageSpec, createMessages } from '../messages/service.ts';
import { localized } from '../mining/service.ts';
import { withQueueUser, withQueueUsers } from '../operator/queue-user.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { assertProductEnabled } from '../settings/service.ts';
import { users } from '../user/tables.ts';
import {
  type LoanProductRow,
  type LoanRow,
  loanOverdueDays,
  loanProducts,
  loans,
} from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import { requireVerified } from '../kyc/service.ts';

/**
 * Assisted loans. Money moves only through the ledger, between the user's spot USDT and
 * `house:loans`:
 *   disburse  user +amount (loan_disbursement)                                  `loan:<id>:disburse`
 *   repay     user −principal (loan_repayment) −interest (loan_interest)
 *                  −overdue interest (loan_overdue_interest), house the opposite `loan:<id>:repay`
 * Interest accrues on the whole principal for each day started since disbursement, up to
 * the period (interest-first: the principal is due at maturity, repaying earlier pays the
 * interest to date). From maturity the loan is overdue; each full day after it adds
 * overdue interest once (a row of loan_overdue_days, primary key loan and day).
 * Raises KYC_REQUIRED, LOAN_PRODUCT_NOT_FOUND, LOAN_PRODUCT_UNAVAILABLE, LOAN_AMOUNT_RANGE,
 * LOAN_PERIOD_INVALID, LOAN_UNSETTLED, LOANS_DISABLED, LOAN_NOT_FOUND, LOAN_INVALID_STATE, AMOUNT_PRECISION,
 * INSUFFICIENT_BALANCE, FILE_NOT_FOUND, FILE_WRONG_PURPOSE.
 */

const SCALE = ASSETS[LOAN_ASSET].scale;
const usdt = (minor: bigint) => formatAmount(minor, SCALE);
const S = LOAN_STATUS;
const UNSETTLED = [S.under_review, S.pending_disbursement, S.disbursed, S.overdue];

export function productView(row: LoanProductRow, language: Language): LoanProduct {
  return {
    id: String(row.id),
    name: localized(row.name, language),
    institution: localized(row.institution, language),
    asset: LOAN_ASSET,
    minAmount: usdt(row.minAmountMinor),
    maxAmount: usdt(row.maxAmountMinor),
    periods: [...row.periods].sort((a, b) => a - b),
    dailyRate: loanRateText(row.dailyRatePpm),
    overdueDailyRate: loanRateText(row.overdueRatePpm),
    method: row.method as LoanMethod,
    description: localized(row.description, language),
  };
}

export async function listProducts(db: Executor, language: Language): Promise<LoanProduct[]> {
  const rows = await db
    .select()
    .from(loanProducts)
    .where(eq(loanProducts.enabled, true))
    .orderBy(asc(loanProducts.sort), asc(loanProducts.id))
    .limit(LOAN_PRODUCTS_MAX);
  return rows.map((row) => productView(row, language));
}

/** Days of interest owed at `now`: each day started since disbursement, at least one, at most the period. */
function interestDays(row: LoanRow, now: Date): number {
  if (!row.disbursedAt) return 0;
  const end = row.repaidAt ?? now;
  const started = Math.ceil((end.getTime() - row.disbursedAt.getTime()) / row.dayMs);
  return Math.min(row.periodDays, Math.max(1, started));
}

/** What settles the loan at `now`: principal, interest to date and the overdue interest accrued. */
export function amountsDue(row: LoanRow, now: Date) {
  const interestMinor = interestOf(row.amountMinor, row.dailyRatePpm, interestDays(row, now));
  return {
    principalMinor: row.amountMinor,
    interestMinor,
    overdueMinor: row.overdueInterestMinor,
    totalMinor: row.amountMinor + interestMinor + row.overdueInterestMinor,
  };
}

type ProductNames = Pick<LoanProductRow, 'name' | 'institution'>;

function loanView(row: LoanRow, product: ProductNames, language: Language, now: Date): Loan {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const status = loanStatusName(row.status);
  const open = status === 'disbursed' || status === 'overdue';
  const due = amountsDue(row, now);
  return {
    id: String(row.id),
    productId: String(row.productId),
    productName: localized(product.name, language),
    institution: localized(product.institution, language),
    status,
    asset: LOAN_ASSET,
    amount: usdt(row.amountMinor),
    approvedAmount:
      row.status === S.under_review || row.status === S.rejected ? null : usdt(row.amountMinor),
    periodDays: row.periodDays,
    dailyRate: loanRateText(row.dailyRatePpm),
    overdueDailyRate: loanRateText(row.overdueRatePpm),
    method: row.method as LoanMethod,
    interest: usdt(interestOf(row.amountMinor, row.dailyRatePpm, row.periodDays)),
    interestToDate: usdt(row.disbursedAt ? due.interestMinor : 0n),
    overdueDays: row.overdueDays,
    overdueInterest: usdt(row.overdueInterestMinor),
    dueNow: usdt(open ? due.totalMinor : 0n),
    repaidAmount: row.repaidMinor === null ? null : usdt(row.repaidMinor),
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    disbursedAt: iso(row.disbursedAt),
    dueAt: iso(row.dueAt),
    repaidAt: iso(row.repaidAt),
  };
}

async function productOf(db: Executor, id: number): Promise<LoanProductRow> {
  const [product] = await db.select().from(loanProducts).where(eq(loanProducts.id, id)).limit(1);
  if (!product) throw new Error(`loan product ${id} missing`);
  return product;
}

/**
 * Applies for a loan in the caller's transaction. Only a verified user; only one unsettled
 * loan (the user row lock makes one user's applications take turns, and the partial unique
 * index `loans_one_unsettled` is the last word). A frozen account gets ACCOUNT_FROZEN.
 */
export async function apply(
  tx: Executor,
  now: Date,
  userId: number,
  request: LoanApplyRequest,
  language: Language,
): Promise<Loan> {
  await assertProductEnabled(tx, 'loans');
  await assertCanMoveMoney(tx, userId);
  const [user] = await tx
    .select({ verified: users.verified })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw new AppError('UNAUTHORIZED');
  requireVerified(user);
  const [product] = await tx
    .select()
    .from(loanProducts)
    .where(eq(loanProducts.id, Number(request.productId)))
    .limit(1);
  if (!product) throw new AppError('LOAN_PRODUCT_NOT_FOUND', {}, 404, 'productId');
  if (!product.enabled) throw new AppError('LOAN_PRODUCT_UNAVAILABLE', {}, 409);
  const amountMinor = parseAmount(request.amount, SCALE);
  if (amountMinor === undefined)
    throw new AppError('AMOUNT_PRECISION', { decimals: SCALE }, 422, 'amount');
  if (amountMinor < product.minAmountMinor || amountMinor > product.maxAmountMinor) {
    throw new AppError(
      'LOAN_AMOUNT_RANGE',
      { min: usdt(product.minAmountMinor), max: usdt(product.maxAmountMinor) },
      422,
      'amount',
    );
  }
  if (!product.periods.includes(request.periodDays))
    throw new AppError('LOAN_PERIOD_INVALID', {}, 422, 'periodDays');
  const [open] = await tx
    .select({ id: loans.id })
    .from(loans)
    .where(and(eq(loans.userId, userId), inArray(loans.status, UNSETTLED)))
    .limit(1);
  if (open) throw new AppError('LOAN_UNSETTLED', {}, 409);
  const photo = (id: string, field: string) =>
    requireOwnFile(tx, { ownerId: userId, id, purpose: 'loan', field });
  const front = await photo(request.frontFileId, 'frontFileId');
  const back = await photo(request.backFileId, 'backFileId');
  const holding = await photo(request.holdingFileId, 'holdingFileId');
  try {
    const [row] = await tx
      .insert(loans)
      .values({
        userId,
        productId: product.id,
        status: S.under_review,
        amountMinor,
        periodDays: request.periodDays,
        dailyRatePpm: product.dailyRatePpm,
        overdueRatePpm: product.overdueRatePpm,
        method: product.method,
        frontFileId: front.id,
        backFileId: back.id,
        holdingFileId: holding.id,
        dayMs: LOAN_DAY_MS,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('loan insert returned no row');
    return loanView(row, product, language, now);
  } catch (error) {
    if (isUniqueViolation(error, 'loans_one_unsettled'))
      throw new AppError('LOAN_UNSETTLED', {}, 409);
    throw error;
  }
}

/** The user's loans for /LoansHistory, newest first. */
export async function listLoans(
  db: Executor,
  now: Date,
  userId: number,
  cursor: string | undefined,
  language: Language,
  limit = LOAN_PAGE_SIZE,
) {
  const conditions: SQL[] = [eq(loans.userId, userId)];
  if (cursor) conditions.push(lt(loans.id, Number(cursor)));
  const rows = await db
    .select({ loan: loans, name: loanProducts.name, institution: loanProducts.institution })
    .from(loans)
    .innerJoin(loanProducts, eq(loanProducts.id, loans.productId))
    .where(and(...conditions))
    .orderBy(desc(loans.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => loanView(r.loan, r, language, now)),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.loan.id) : null,
  };
}

/** One of the user's own loans; another user's is "not found". */
export async function getLoan(
  db: Executor,
  now: Date,
  userId: number,
  id: number,
  language: Language,
): Promise<Loan> {
  const [row] = await db
    .select({ loan: loans, name: loanProducts.name, institution: loanProducts.institution })
    .from(loans)
    .innerJoin(loanProducts, eq(loanProducts.id, loans.productId))
    .where(and(eq(loans.id, id), eq(loans.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('LOAN_NOT_FOUND', {}, 404);
  return loanView(row.loan, row, language, now);
}

/**
 * Brings one locked loan up to date at `now`: at maturity it becomes overdue (a credit
 * event and a message, once); each full day after maturity adds a row of overdue interest.
 * Returns the updated row. The caller holds the row lock.
 */
async function accrueLocked(
  tx: Executor,
  now: Date,
  row: LoanRow,
  created: CreatedMessage[],
): Promise<LoanRow> {
  if ((row.status !== S.disbursed && row.status !== S.overdue) || !row.dueAt || now < row.dueAt)
    return row;
  const dueMs = row.dueAt.getTime();
  const fullDays = Math.min(LOAN_OVERDUE_MAX_DAYS, Math.floor((now.getTime() - dueMs) / row.dayMs));
  const perDayMinor = interestOf(row.amountMinor, row.overdueRatePpm, 1);
  const days: number[] = [];
  for (let day = row.overdueDays + 1; day <= fullDays; day++) days.push(day);
  if (days.length > 0)
    await tx
      .insert(loanOverdueDays)
      .values(
        days.map((day) => ({ loanId: row.id, day, amountMinor: perDayMinor, accruedAt: now })),
      );
  const overdueDays = row.overdueDays + days.length;
  const becameOverdue = row.status === S.disbursed;
  const [after] = await tx
    .update(loans)
    .set({
      status: S.overdue,
      overdueDays,
      overdueInterestMinor: perDayMinor * BigInt(overdueDays),
      nextAccrualAt:
        overdueDays >= LOAN_OVERDUE_MAX_DAYS
          ? new Date(8.64e15)
          : new Date(dueMs + (overdueDays + 1) * row.dayMs),
    })
    .where(
      and(
        eq(loans.id, row.id),
        eq(loans.status, row.status),
        eq(loans.overdueDays, row.overdueDays),
      ),
    )
    .returning();
  // The row is locked by this transaction: anything else is a bug, and nothing of it commits.
  if (!after) throw new Error(`loan ${row.id} changed under its accrual`);
  if (becameOverdue) {
    await recordCreditEvent(tx, now, {
      userId: row.userId,
      kind: 'loan_overdue',
      ref: `loan:${row.id}`,
    });
    created.push(
      ...(await createMessages(tx, now, [
        {
          userId: row.userId,
          kind: 'loan.overdue',
          ref: `loan:${row.id}:overdue`,
          params: { amount: usdt(row.amountMinor) },
          link: '/LoansHistory',
        },
      ])),
    );
  }
  return after;
}

const ACCRUAL_BATCH = 50;

export interface AccrualResult {
  /** Overdue days accrued by this call. */
  days: number;
  /** Loans that became overdue in this call. */
  overdue: number;
  created: CreatedMessage[];
}

/**
 * Accrues what is due at `now`, once: loans whose next accrual is due are claimed with
 * `FOR UPDATE SKIP LOCKED`, so any number of workers can run; each overdue day is a row of
 * loan_overdue_days (primary key loan, day) written with the loan's new totals.
 */
export async function accrueDue(db: Db, now: Date): Promise<AccrualResult> {
  const result: AccrualResult = { days: 0, overdue: 0, created: [] };
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(loans)
        .where(and(inArray(loans.status, [S.disbursed, S.overdue]), lte(loans.nextAccrualAt, now)))
        .orderBy(asc(loans.nextAccrualAt), asc(loans.id))
        .limit(ACCRUAL_BATCH)
        .for('update', { skipLocked: true });
      const created: CreatedMessage[] = [];
      let days = 0;
      let overdue = 0;
      for (const row of rows) {
        const after = await accrueLocked(tx, now, row, created);
        days += after.overdueDays - row.overdueDays;
        if (row.status === S.disbursed && after.status === S.overdue) overdue += 1;
      }
      return { n: rows.length, days, overdue, created };
    });
    result.days += claimed.days;
    result.overdue += claimed.overdue;
    result.created.push(...claimed.created);
    if (claimed.n === 0) return result;
  }
}

/**
 * Repays a disbursed or overdue loan in full from spot USDT: principal, interest to date
 * and overdue interest, one ledger entry. Repaid by maturity earns the on-time credit
 * event. Not enough USDT raises INSUFFICIENT_BALANCE and changes nothing.
 */
export async function repay(
  tx: Executor,
  ledger: Ledger,
  now: Date,
  userId: number,
  id: number,
  language: Language,
  created: CreatedMessage[],
): Promise<Loan> {
  const [locked] = await tx
    .select()
    .from(loans)
    .where(and(eq(loans.id, id), eq(loans.userId, userId)))
    .for('update');
  if (!locked) throw new AppError('LOAN_NOT_FOUND', {}, 404);
  if (locked.status !== S.disbursed && locked.status !== S.overdue)
    throw new AppError('LOAN_INVALID_STATE', {}, 409);
  // Catch up first: a repayment after maturity pays the overdue days even if no worker ran yet.
  const row = await accrueLocked(tx, now, locked, created);
  const due = amountsDue(row, now);
  const postings: PostingSpec[] = [];
  const leg = (
    amount: bigint,
    type: 'loan_repayment' | 'loan_interest' | 'loan_overdue_interest',
  ) => {
    if (amount <= 0n) return;
    postings.push(
      { account: userAccount(userId, 'spot', LOAN_ASSET), amount: -amount, type },
      { account: houseAccount('loans', LOAN_ASSET), amount, type },
    );
  };
  leg(due.principalMinor, 'loan_repayment');
  leg(due.interestMinor, 'loan_interest');
  leg(due.overdueMinor, 'loan_overdue_interest');
  try {
    await ledger.post(tx, now, {
      kind: 'loan_repayment',
      reference: `loan:${id}:repay`,
      userId,
      postings,
    });
  } catch (error) {
    if (error instanceof DuplicateEntryError) throw new AppError('LOAN_INVALID_STATE', {}, 409);
    throw error;
  }
  const [after] = await tx
    .update(loans)
    .set({ status: S.repaid, repaidAt: now, repaidMinor: due.totalMinor, nextAccrualAt: null })
    .where(and(eq(loans.id, id), eq(loans.status, row.status)))
    .returning();
  if (!after) throw new Error(`loan ${id} changed under its repayment`);
  if (row.status === S.disbursed)
    await recordCreditEvent(tx, now, { userId, kind: 'loan_repaid_on_time', ref: `loan:${id}` });
  created.push(
    ...(await createMessages(tx, now, [
      {
        userId,
        kind: 'loan.repaid',
        ref: `loan:${id}:repaid`,
        params: { total: usdt(due.totalMinor) },
        link: '/LoansHistory',
      },
    ])),
  );
  return loanView(after, await productOf(tx, after.productId), language, now);
}

export const LOAN_QUEUE_PAGE = 50;

/** Loans waiting for an operator (under review or pending disbursement), oldest first. */
export async function listQueue(db: Executor, now: Date, cursor?: string, limit = LOAN_QUEUE_PAGE) {
  const rows = await db
    .select({ loan: loans, name: loanProducts.name, institution: loanProducts.institution })
    .from(loans)
    .innerJoin(loanProducts, eq(loanProducts.id, loans.productId))
    .where(
      and(
        inArray(loans.status, [S.under_review, S.pending_disbursement]),
        cursor ? gt(loans.id, Number(cursor)) : undefined,
      ),
    )
    .orderBy(asc(loans.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: await withQueueUsers(
      db,
      page.map((r) => queueItem(r.loan, r, now)),
    ),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.loan.id) : null,
  };
}

function queueItem(row: LoanRow, product: ProductNames, now: Date) {
  return {
    ...loanView(row, product, 'en', now),
    uid: String(row.userId),
    frontFileId: String(row.frontFileId),
    backFileId: String(row.backFileId),
    holdingFileId: String(row.holdingFileId),
  };
}

/**
 * An operator approves a loan under review (it then waits for disbursement) or rejects it
 * with a reason. Status, message and audit entry are one transaction.
 */
export async function decideLoan(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: LoanDecideRequest,
  created: CreatedMessage[] = [],
) {
  return db.transaction(async (tx) => {
    const id = Number(input.id);
    const [before] = await tx.select().from(loans).where(eq(loans.id, id)).for('update');
    if (!before) throw new AppError('LOAN_NOT_FOUND', {}, 404);
    if (before.status !== S.under_review) throw new AppError('LOAN_INVALID_STATE', {}, 409);
    const approve = input.decision === 'approve';
    const [after] = await tx
      .update(loans)
      .set(
        approve
          ? { status: S.pending_disbursement, decidedAt: now, decidedBy: operator.operatorId }
          : {
              status: S.rejected,
              reason: input.reason ?? null,
              decidedAt: now,
              decidedBy: operator.operatorId,
            },
      )
      .where(and(eq(loans.id, id), eq(loans.status, S.under_review)))
      .returning();
    if (!after) throw new AppError('LOAN_INVALID_STATE', {}, 409);
    await audit(tx, now, operator, {
      action: `loan.${input.decision}`,
      targetType: 'loan',
      targetId: id,
      before: {
        status: loanStatusName(before.status),
        userId: before.userId,
        amount: usdt(before.amountMinor),
      },
      after: { status: loanStatusName(after.status) },
      reason: input.reason ?? null,
    });
    const message: MessageSpec = approve
      ? {
          userId: after.userId,
          kind: 'loan.approved',
          ref: `loan:${id}:approved`,
          params: { amount: usdt(after.amountMinor) },
          link: '/LoansHistory',
        }
      : {
          userId: after.userId,
          kind: 'loan.rejected',
          ref: `loan:${id}:rejected`,
          params: { amount: usdt(after.amountMinor), reason: input.reason ?? '' },
          link: '/LoansHistory',
        };
    created.push(...(await createMessages(tx, now, [message])));
    return withQueueUser(tx, queueItem(after, await productOf(tx, after.productId), now));
  });
}

/**
 * An operator marks an approved loan disbursed: the amount moves from `house:loans` to the
 * user's spot USDT (reference `loan:<id>:disburse`, once) and the period starts now.
 */
export async function disburseLoan(
  db: Db,
  ledger: Ledger,
  now: Date,
  operator: OperatorContext,
  id: number,
  created: CreatedMessage[] = [],
) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(loans).where(eq(loans.id, id)).for('update');
    if (!before) throw new AppError('LOAN_NOT_FOUND', {}, 404);
    if (before.status !== S.pending_disbursement) throw new AppError('LOAN_INVALID_STATE', {}, 409);
    // A frozen account receives no new money either: the loan waits until it is unfrozen.
    await assertCanMoveMoney(tx, before.userId);
    let entryId: number;
    try {
      entryId = await ledger.post(tx, now, {
        kind: 'loan_disbursement',
        reference: `loan:${id}:disburse`,
        userId: before.userId,
        postings: [
          {
            account: userAccount(before.userId, 'spot', LOAN_ASSET),
            amount: before.amountMinor,
            type: 'loan_disbursement',
          },
          {
            account: houseAccount('loans', LOAN_ASSET),
            amount: -before.amountMinor,
            type: 'loan_disbursement',
          },
        ],
      });
    } catch (error) {
      if (error instanceof DuplicateEntryError) throw new AppError('LOAN_INVALID_STATE', {}, 409);
      throw error;
    }
    const dueAt = new Date(now.getTime() + before.periodDays * before.dayMs);
    const [after] = await tx
      .update(loans)
      .set({
        status: S.disbursed,
        disbursedAt: now,
        disbursedBy: operator.operatorId,
        dueAt,
        nextAccrualAt: dueAt,
      })
      .where(and(eq(loans.id, id), eq(loans.status, S.pending_disbursement)))
      .returning();
    if (!after) throw new AppError('LOAN_INVALID_STATE', {}, 409);
    await audit(tx, now, operator, {
      action: 'loan.disburse',
      targetType: 'loan',
      targetId: id,
      before: { status: loanStatusName(before.status), userId: before.userId },
      after: {
        status: 'disbursed',
        entryId,
        amount: usdt(after.amountMinor),
        dueAt: dueAt.toISOString(),
      },
    });
    created.push(
      ...(await createMessages(tx, now, [
        {
          userId: after.userId,
          kind: 'loan.disbursed',
          ref: `loan:${id}:disbursed`,
          params: { amount: usdt(after.amountMinor), dueAt: dueAt.toISOString().slice(0, 10) },
          link: '/LoansHistory',
        },
      ])),
    );
    return withQueueUser(tx, queueItem(after, await productOf(tx, after.productId), now));
  });
}

export type NewLoanProduct = Omit<
  typeof loanProducts.$inferInsert,
  'id' | 'createdAt' | 'updatedAt'
>;

/** Inserts products by slug; one whose slug exists is left as it is (operators may have edited it). */
export async function seedLoanProducts(
  db: Db,
  now: Date,
  products: NewLoanProduct[],
): Promise<void> {
  if (products.length === 0) return;
  await db
    .insert(loanProducts)
    .values(products.map((p) => ({ ...p, createdAt: now, updatedAt: now })))
    .onConflictDoNothing({ target: loanProducts.slug });
}
