import type { Language } from '@tradewind/contract/languages';
import {
  MINING_ASSET,
  MINING_MAX_OPEN_RENTALS,
  MINING_PAGE_SIZE,
  MINING_PRODUCTS_MAX,
  MINING_RENTAL_STATUS,
  type MiningDecideRequest,
  type MiningHistoryTab,
  type MiningProduct,
  type MiningProductInput,
  type MiningRental,
  type MiningRentalDetail,
  type RentRequest,
  dailyYieldOf,
  miningStatusName,
  rateText,
} from '@tradewind/contract/mining';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';
import { type SQL, and, asc, count, desc, eq, gt, inArray, lt, lte } from 'drizzle-orm';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import {
  DuplicateEntryError,
  type EntrySpec,
  type Ledger,
  houseAccount,
  userAccount,
} from '../ledger/service.ts';
import { type CreatedMessage, type MessageSpec, createMessages } from '../messages/service.ts';
import { assertProductEnabled } from '../settings/service.ts';
import { withQueueUser, withQueueUsers } from '../operator/queue-user.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { users } from '../user/tables.ts';
import {
  type LocalizedText,
  type MiningProductRow,
  type MiningRentalRow,
  miningPayouts,
  miningProducts,
  miningRentals,
} from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import { requireKyc } from '../kyc/service.ts';

/**
 * Cloud-miner rental. Money moves only through the ledger, between the user's spot USDT
 * and `house:mining`:
 *   rent      user −amount (mining_rent)       house +amount   `mining:<id>:rent`
 *   reject    user +amount (mining_refund)     house −amount   `mining:<id>:refund`
 *   day n     user +yield  (mining_payout)     house −yield    `mining:<id>:day:<n>`
 *   complete  user +amount (mining_principal)  house −amount   `mining:<id>:principal`
 * Raises MINING_PRODUCT_NOT_FOUND, MINING_PRODUCT_UNAVAILABLE, MINING_QUANTITY_RANGE,
 * MINING_BELOW_MINIMUM, MINING_PRICE_CHANGED, MINING_OPEN_RENTAL_LIMIT, INSUFFICIENT_BALANCE,
 * AMOUNT_PRECISION, MINING_RENTAL_NOT_FOUND, INVALID_STATE, MINING_PRODUCT_SLUG_TAKEN, MINING_PRODUCT_INVALID.
 */

const SCALE = ASSETS[MINING_ASSET].scale;
const usdt = (minor: bigint) => formatAmount(minor, SCALE);
const S = MINING_RENTAL_STATUS;

export function localized(text: LocalizedText, language: Language): string {
  return text[language] ?? text.en;
}

export function productView(row: MiningProductRow, language: Language): MiningProduct {
  return {
    id: String(row.id),
    name: localized(row.name, language),
    output: row.output,
    hashrate: row.hashrate,
    power: row.power,
    periodDays: row.periodDays,
    asset: MINING_ASSET,
    unitPrice: usdt(row.unitPriceMinor),
    minInvestment: usdt(row.minInvestmentMinor),
    maxQuantity: row.maxQuantity,
    dailyRate: rateText(row.dailyRatePpm),
    dailyYieldPerUnit: usdt(dailyYieldOf(row.unitPriceMinor, row.dailyRatePpm)),
    description: localized(row.description, language),
    enabled: row.enabled,
  };
}

/** Products users can rent, in the operators' order. */
export async function listProducts(db: Executor, language: Language): Promise<MiningProduct[]> {
  const rows = await db
    .select()
    .from(miningProducts)
    .where(eq(miningProducts.enabled, true))
    .orderBy(asc(miningProducts.sort), asc(miningProducts.id))
    .limit(MINING_PRODUCTS_MAX);
  return rows.map((row) => productView(row, language));
}

/** One product, also when disabled (a rental's product stays readable). */
export async function getProduct(
  db: Executor,
  id: number,
  language: Language,
): Promise<MiningProduct> {
  const [row] = await db.select().from(miningProducts).where(eq(miningProducts.id, id)).limit(1);
  if (!row) throw new AppError('MINING_PRODUCT_NOT_FOUND', {}, 404);
  return productView(row, language);
}

function rentalView(
  row: MiningRentalRow,
  product: Pick<MiningProductRow, 'name' | 'output'>,
  language: Language,
): MiningRental {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: String(row.id),
    productId: String(row.productId),
    productName: localized(product.name, language),
    output: product.output,
    status: miningStatusName(row.status),
    statusCode: row.status as MiningRental['statusCode'],
    asset: MINING_ASSET,
    quantity: row.quantity,
    unitPrice: usdt(row.unitPriceMinor),
    amount: usdt(row.amountMinor),
    dailyRate: rateText(row.dailyRatePpm),
    dailyYield: usdt(row.dailyYieldMinor),
    periodDays: row.periodDays,
    totalProfit: usdt(row.dailyYieldMinor * BigInt(row.periodDays)),
    paidOut: usdt(row.paidOutMinor),
    paidDays: row.paidDays,
    principalReturned: row.principalReturned,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    endsAt: iso(row.endsAt),
    nextPayoutAt: iso(row.nextPayoutAt),
    completedAt: iso(row.completedAt),
  };
}

const entry = (
  rental: Pick<MiningRentalRow, 'id' | 'userId'>,
  what: string,
  userAmount: bigint,
  type: 'mining_rent' | 'mining_refund' | 'mining_payout' | 'mining_principal',
): EntrySpec => ({
  kind: type,
  reference: `mining:${rental.id}:${what}`,
  userId: rental.userId,
  postings: [
    { account: userAccount(rental.userId, 'spot', MINING_ASSET), amount: userAmount, type },
    { account: houseAccount('mining', MINING_ASSET), amount: -userAmount, type },
  ],
});

/**
 * Rents `quantity` units, paying `amount` (which must be quantity × the unit price now)
 * from spot USDT in the caller's transaction; the rental waits for review (or, with
 * MINING_AUTO_APPROVE in demo mode, starts at once). A frozen account gets ACCOUNT_FROZEN, an
 * unverified one KYC_REQUIRED (spec §5), a switched-off product MINING_DISABLED.
 */
export async function rent(
  tx: Tx,
  ledger: Ledger,
  now: Date,
  settings: { dayMs: number; autoApprove: boolean },
  userId: number,
  request: RentRequest,
  language: Language,
): Promise<MiningRental> {
  await assertProductEnabled(tx, 'mining');
  await assertCanMoveMoney(tx, userId);
  await requireKyc(tx, userId);
  const { dayMs, autoApprove } = settings;
  const productId = Number(request.productId);
  const [product] = await tx
    .select()
    .from(miningProducts)
    .where(eq(miningProducts.id, productId))
    .limit(1);
  if (!product) throw new AppError('MINING_PRODUCT_NOT_FOUND', {}, 404);
  if (!product.enabled) throw new AppError('MINING_PRODUCT_UNAVAILABLE', {}, 409);
  if (request.quantity > product.maxQuantity)
    throw new AppError('MINING_QUANTITY_RANGE', { max: product.maxQuantity }, 422, 'quantity');
  const amountMinor = parseAmount(request.amount, SCALE);
  if (amountMinor === undefined || amountMinor <= 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: SCALE }, 422, 'amount');
  const priceMinor = product.unitPriceMinor * BigInt(request.quantity);
  const dailyYieldMinor = dailyYieldOf(priceMinor, product.dailyRatePpm);
  if (priceMinor < product.minInvestmentMinor || dailyYieldMinor <= 0n) {
    throw new AppError(
      'MINING_BELOW_MINIMUM',
      { min: usdt(product.minInvestmentMinor) },
      422,
      'quantity',
    );
  }
  if (amountMinor !== priceMinor) throw new AppError('MINING_PRICE_CHANGED', {}, 409);

  // The user row lock makes one user's rentals take turns, so the open-rental cap holds. Not
  // FOR UPDATE: that also blocks foreign-key checks on the user (a payout round writing the
  // owner a message while it holds the mining house account this rental waits for: deadlock).
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  const [open] = await tx
    .select({ n: count() })
    .from(miningRentals)
    .where(
      and(
        eq(miningRentals.userId, userId),
        inArray(miningRentals.status, [S.under_review, S.active]),
      ),
    );
  if ((open?.n ?? 0) >= MINING_MAX_OPEN_RENTALS)
    throw new AppError('MINING_OPEN_RENTAL_LIMIT', { max: MINING_MAX_OPEN_RENTALS }, 409);

  const [row] = await tx
    .insert(miningRentals)
    .values({
      userId,
      productId,
      // MINING_AUTO_APPROVE (demo mode only): active at once, decided by nobody, so no audit entry.
      ...(autoApprove
        ? {
            status: S.active,
            decidedAt: now,
            startedAt: now,
            endsAt: new Date(now.getTime() + product.periodDays * dayMs),
            nextPayoutAt: new Date(now.getTime() + dayMs),
          }
        : { status: S.under_review }),
      quantity: request.quantity,
      unitPriceMinor: product.unitPriceMinor,
      amountMinor,
      dailyRatePpm: product.dailyRatePpm,
      dailyYieldMinor,
      periodDays: product.periodDays,
      dayMs,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('rental insert returned no row');
  await ledger.post(tx, now, entry(row, 'rent', -amountMinor, 'mining_rent'));
  return rentalView(row, product, language);
}

const TAB_STATUSES: Record<MiningHistoryTab, number[] | null> = {
  active: [S.under_review, S.active],
  completed: [S.completed, S.rejected],
  all: null,
};

/** The user's rentals for a /MiningHis tab, newest first; `cursor` is the last id of the previous page. */
export async function listRentals(
  db: Executor,
  userId: number,
  tab: MiningHistoryTab,
  cursor: string | undefined,
  language: Language,
  limit = MINING_PAGE_SIZE,
) {
  const conditions: SQL[] = [eq(miningRentals.userId, userId)];
  const statuses = TAB_STATUSES[tab];
  if (statuses) conditions.push(inArray(miningRentals.status, statuses));
  if (cursor) conditions.push(lt(miningRentals.id, Number(cursor)));
  const rows = await db
    .select({ rental: miningRentals, name: miningProducts.name, output: miningProducts.output })
    .from(miningRentals)
    .innerJoin(miningProducts, eq(miningProducts.id, miningRentals.productId))
    .where(and(...conditions))
    .orderBy(desc(miningRentals.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => rentalView(r.rental, r, language)),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.rental.id) : null,
  };
}

/** One of the user's own rentals with its payouts; another user's is "not found". */
export async function getRental(
  db: Executor,
  userId: number,
  id: number,
  language: Language,
): Promise<MiningRentalDetail> {
  const [row] = await db
    .select({ rental: miningRentals, name: miningProducts.name, output: miningProducts.output })
    .from(miningRentals)
    .innerJoin(miningProducts, eq(miningProducts.id, miningRentals.productId))
    .where(and(eq(miningRentals.id, id), eq(miningRentals.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('MINING_RENTAL_NOT_FOUND', {}, 404);
  const payouts = await db
    .select()
    .from(miningPayouts)
    .where(eq(miningPayouts.rentalId, id))
    .orderBy(desc(miningPayouts.day));
  return {
    ...rentalView(row.rental, row, language),
    payouts: payouts.map((p) => ({
      day: p.day,
      amount: usdt(p.amountMinor),
      paidAt: p.paidAt.toISOString(),
    })),
  };
}

export const MINING_QUEUE_PAGE = 50;

/** Rentals under review, oldest first, after `cursor`. */
export async function listQueue(db: Executor, cursor?: string, limit = MINING_QUEUE_PAGE) {
  const rows = await db
    .select({ rental: miningRentals, name: miningProducts.name, output: miningProducts.output })
    .from(miningRentals)
    .innerJoin(miningProducts, eq(miningProducts.id, miningRentals.productId))
    .where(
      and(
        eq(miningRentals.status, S.under_review),
        cursor ? gt(miningRentals.id, Number(cursor)) : undefined,
      ),
    )
    .orderBy(asc(miningRentals.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: await withQueueUsers(
      db,
      page.map((r) => ({ ...rentalView(r.rental, r, 'en'), uid: String(r.rental.userId) })),
    ),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.rental.id) : null,
  };
}

/** The owner's message about a rental (its decision, its completion), linking to it. */
function rentalMessage(
  rental: Pick<MiningRentalRow, 'id' | 'userId'>,
  kind: 'mining.approved' | 'mining.rejected' | 'mining.completed',
): MessageSpec {
  return {
    userId: rental.userId,
    kind,
    ref: `mining:${rental.id}`,
    link: `/MiningDetail?id=${rental.id}`,
  };
}

/**
 * An operator approves a rental under review (it starts now: day n is due n days later)
 * or rejects it with a reason (the payment is refunded). Status, refund and audit are one
 * transaction; a second decision finds it decided (INVALID_STATE).
 */
export async function decideRental(
  db: Db,
  ledger: Ledger,
  now: Date,
  operator: OperatorContext,
  input: MiningDecideRequest,
  created: CreatedMessage[] = [],
) {
  return db.transaction(async (tx) => {
    const id = Number(input.id);
    const [before] = await tx
      .select()
      .from(miningRentals)
      .where(eq(miningRentals.id, id))
      .for('update');
    if (!before) throw new AppError('MINING_RENTAL_NOT_FOUND', {}, 404);
    if (before.status !== S.under_review) throw new AppError('INVALID_STATE', {}, 409);
    const approve = input.decision === 'approve';
    let refundEntryId: number | null = null;
    if (!approve) {
      try {
        refundEntryId = await ledger.post(
          tx,
          now,
          entry(before, 'refund', before.amountMinor, 'mining_refund'),
        );
      } catch (error) {
        if (error instanceof DuplicateEntryError) throw new AppError('INVALID_STATE', {}, 409);
        throw error;
      }
    }
    const startedAt = approve ? now : null;
    const [after] = await tx
      .update(miningRentals)
      .set(
        approve
          ? {
              status: S.active,
              startedAt,
              endsAt: new Date(now.getTime() + before.periodDays * before.dayMs),
              nextPayoutAt: new Date(now.getTime() + before.dayMs),
              decidedAt: now,
              decidedBy: operator.operatorId,
            }
          : {
              status: S.rejected,
              reason: input.reason ?? null,
              decidedAt: now,
              decidedBy: operator.operatorId,
            },
      )
      .where(and(eq(miningRentals.id, id), eq(miningRentals.status, S.under_review)))
      .returning();
    if (!after) throw new AppError('INVALID_STATE', {}, 409);
    await audit(tx, now, operator, {
      action: `mining_rental.${input.decision}`,
      targetType: 'mining_rental',
      targetId: id,
      before: {
        status: miningStatusName(before.status),
        userId: before.userId,
        amount: usdt(before.amountMinor),
      },
      after: {
        status: miningStatusName(after.status),
        ...(refundEntryId !== null
          ? { refundEntryId, refunded: usdt(before.amountMinor) }
          : { endsAt: after.endsAt?.toISOString() }),
      },
      reason: input.reason ?? null,
    });
    created.push(
      ...(await createMessages(tx, now, [
        approve
          ? {
              ...rentalMessage(after, 'mining.approved'),
              params: { amount: usdt(after.amountMinor), days: after.periodDays },
            }
          : {
              ...rentalMessage(after, 'mining.rejected'),
              params: {
                amount: usdt(after.amountMinor),
                ...(input.reason ? { reason: input.reason } : {}),
              },
              ...(input.reason ? {} : { keyParams: { reason: 'messages.no_reason' } }),
            },
      ])),
    );
    const [product] = await tx
      .select()
      .from(miningProducts)
      .where(eq(miningProducts.id, after.productId))
      .limit(1);
    if (!product) throw new Error(`rental ${id} without its product`);
    return withQueueUser(tx, { ...rentalView(after, product, 'en'), uid: String(after.userId) });
  });
}

function productValues(input: MiningProductInput) {
  const unitPriceMinor = parseAmount(input.unitPrice, SCALE);
  const minInvestmentMinor = parseAmount(input.minInvestment, SCALE);
  if (unitPriceMinor === undefined || unitPriceMinor <= 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: SCALE }, 422, 'unitPrice');
  if (minInvestmentMinor === undefined)
    throw new AppError('AMOUNT_PRECISION', { decimals: SCALE }, 422, 'minInvestment');
  if (minInvestmentMinor < unitPriceMinor)
    throw new AppError('MINING_PRODUCT_INVALID', {}, 422, 'minInvestment');
  const strip = (text: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(text).filter(([, v]) => v !== undefined)) as LocalizedText;
  return {
    slug: input.slug,
    name: strip(input.name),
    description: strip(input.description),
    output: input.output,
    hashrate: input.hashrate,
    power: input.power,
    periodDays: input.periodDays,
    unitPriceMinor,
    minInvestmentMinor,
    maxQuantity: input.maxQuantity,
    dailyRatePpm: input.dailyRatePpm,
    enabled: input.enabled,
    sort: input.sort,
  };
}

export function adminProductView(row: MiningProductRow) {
  return {
    ...productView(row, 'en'),
    slug: row.slug,
    dailyRatePpm: row.dailyRatePpm,
    sort: row.sort,
    texts: { name: row.name, description: row.description },
  };
}

export async function listAdminProducts(db: Executor) {
  const rows = await db
    .select()
    .from(miningProducts)
    .orderBy(asc(miningProducts.sort), asc(miningProducts.id))
    .limit(MINING_PRODUCTS_MAX);
  return rows.map(adminProductView);
}

/**
 * Creates a product (no `id`) or edits one; audit-logged with before and after. Rentals
 * already made keep the terms they were rented at.
 */
export async function saveProduct(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: MiningProductInput,
) {
  const values = productValues(input);
  try {
    return await db.transaction(async (tx) => {
      if (input.id === undefined) {
        const [created] = await tx
          .insert(miningProducts)
          .values({ ...values, createdAt: now, updatedAt: now })
          .returning();
        if (!created) throw new Error('product insert returned no row');
        await audit(tx, now, operator, {
          action: 'mining_product.create',
          targetType: 'mining_product',
          targetId: created.id,
          after: adminProductView(created),
        });
        return adminProductView(created);
      }
      const id = Number(input.id);
      const [before] = await tx
        .select()
        .from(miningProducts)
        .where(eq(miningProducts.id, id))
        .for('update');
      if (!before) throw new AppError('MINING_PRODUCT_NOT_FOUND', {}, 404, 'id');
      const [after] = await tx
        .update(miningProducts)
        .set({ ...values, updatedAt: now })
        .where(eq(miningProducts.id, id))
        .returning();
      if (!after) throw new Error('product update returned no row');
      await audit(tx, now, operator, {
        action: 'mining_product.update',
        targetType: 'mining_product',
        targetId: id,
        before: adminProductView(before),
        after: adminProductView(after),
      });
      return adminProductView(after);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'mining_products_slug_key'))
      throw new AppError('MINING_PRODUCT_SLUG_TAKEN', {}, 409, 'slug');
    throw error;
  }
}

/** At most this many rentals per payout transaction, and days per rental (a worker long down catches up in rounds). */
const PAYOUT_BATCH_RENTALS = 50;
const PAYOUT_MAX_DAYS_PER_ROUND = 30;

export interface PayoutResult {
  /** Days paid by this call. */
  days: number;
  /** Rentals completed by this call. */
  completed: number;
  users: Set<number>;
  /** The owners' "rental completed" messages, to push after the commit. */
  messages: CreatedMessage[];
}

/**
 * Pays every day that is due at `now`, once: active rentals whose next day is due are
 * claimed with `FOR UPDATE SKIP LOCKED`, so any number of workers can run; each day is a
 * row in mining_payouts (primary key rental, day) and a ledger entry with the unique
 * reference `mining:<id>:day:<n>`, written with the rental's new paid_days in one
 * transaction. The last day also returns the principal and completes the rental.
 */
export async function payDue(db: Db, ledger: Ledger, now: Date): Promise<PayoutResult> {
  const result: PayoutResult = { days: 0, completed: 0, users: new Set(), messages: [] };
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(miningRentals)
        .where(and(eq(miningRentals.status, S.active), lte(miningRentals.nextPayoutAt, now)))
        .orderBy(asc(miningRentals.nextPayoutAt), asc(miningRentals.id))
        .limit(PAYOUT_BATCH_RENTALS)
        .for('update', { skipLocked: true });
      const specs: EntrySpec[] = [];
      const plans: { row: MiningRentalRow; days: number[]; complete: boolean }[] = [];
      for (const row of rows) {
        const startedMs = (row.startedAt as Date).getTime();
        const elapsedDays = Math.floor((now.getTime() - startedMs) / row.dayMs);
        const dueDays = Math.min(
          row.periodDays,
          elapsedDays,
          row.paidDays + PAYOUT_MAX_DAYS_PER_ROUND,
        );
        const days: number[] = [];
        for (let day = row.paidDays + 1; day <= dueDays; day++) {
          days.push(day);
          specs.push(entry(row, `day:${day}`, row.dailyYieldMinor, 'mining_payout'));
        }
        const complete = dueDays === row.periodDays;
        // The principal comes back with the last day (disclosed on every product's page).
        if (complete) specs.push(entry(row, 'principal', row.amountMinor, 'mining_principal'));
        plans.push({ row, days, complete });
      }
      if (specs.length === 0) return 0;
      const entryIds = new Map<string, number>();
      const ids = await ledger.postMany(tx, now, specs);
      specs.forEach((spec, i) => entryIds.set(spec.reference, ids[i] as number));
      const payoutRows = plans.flatMap(({ row, days }) =>
        days.map((day) => ({
          rentalId: row.id,
          day,
          amountMinor: row.dailyYieldMinor,
          entryId: entryIds.get(`mining:${row.id}:day:${day}`) as number,
          dueAt: new Date((row.startedAt as Date).getTime() + day * row.dayMs),
          paidAt: now,
        })),
      );
      if (payoutRows.length > 0) await tx.insert(miningPayouts).values(payoutRows);
      for (const { row, days, complete } of plans) {
        const paidDays = row.paidDays + days.length;
        const startedMs = (row.startedAt as Date).getTime();
        const updated = await tx
          .update(miningRentals)
          .set({
            paidDays,
            paidOutMinor: row.dailyYieldMinor * BigInt(paidDays),
            nextPayoutAt: complete ? null : new Date(startedMs + (paidDays + 1) * row.dayMs),
            ...(complete ? { status: S.completed, principalReturned: true, completedAt: now } : {}),
          })
          .where(
            and(
              eq(miningRentals.id, row.id),
              eq(miningRentals.status, S.active),
              eq(miningRentals.paidDays, row.paidDays),
            ),
          )
          .returning({ id: miningRentals.id });
        // The row is locked by this transaction: anything else is a bug, and nothing of it commits.
        if (updated.length !== 1)
          throw new Error(`mining rental ${row.id} changed under its payout`);
        result.days += days.length;
        if (complete) result.completed += 1;
        result.users.add(row.userId);
      }
      const completed = plans.filter((plan) => plan.complete);
      result.messages.push(
        ...(await createMessages(
          tx,
          now,
          completed.map(({ row }) => ({
            ...rentalMessage(row, 'mining.completed'),
            params: {
              amount: usdt(row.amountMinor),
              paid: usdt(row.dailyYieldMinor * BigInt(row.periodDays)),
            },
          })),
        )),
      );
      return rows.length;
    });
    if (claimed === 0) return result;
  }
}

/** Payouts a test or a second process can check: the paid days of a rental. */
export async function paidDaysOf(db: Executor, rentalId: number): Promise<number[]> {
  const rows = await db
    .select({ day: miningPayouts.day })
    .from(miningPayouts)
    .where(eq(miningPayouts.rentalId, rentalId))
    .orderBy(asc(miningPayouts.day));
  return rows.map((r) => r.day);
}

export type NewProduct = Omit<typeof miningProducts.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Inserts products by slug; one whose slug exists is left as it is (operators may have edited it). */
export async function seedProducts(db: Db, now: Date, products: NewProduct[]): Promise<void> {
  if (products.length === 0) return;
  await db
    .insert(miningProducts)
    .values(products.map((p) => ({ ...p, createdAt: now, updatedAt: now })))
    .onConflictDoNothing({ target: miningProducts.slug });
}
