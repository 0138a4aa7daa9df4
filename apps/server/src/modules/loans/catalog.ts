import type { AdminLoanProduct, LoanProductSave } from '@tradewind/contract/catalog';
import { LOAN_ASSET, LOAN_PRODUCTS_MAX, type LoanMethod } from '@tradewind/contract/loans';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';
import { asc, eq } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { amountOf } from '../wallet/service.ts';
import { type LoanProductRow, loanProducts } from './tables.ts';

/**
 * Loan products as the console edits them (issue 7). A loan copies its product's terms
 * (amount, period, rates) when applied for, so an edit only affects later applications.
 * Raises LOAN_PRODUCT_NOT_FOUND, LOAN_PRODUCT_SLUG_TAKEN and AMOUNT_PRECISION.
 */

const SCALE = ASSETS[LOAN_ASSET].scale;

const adminLoanProductView = (row: LoanProductRow): AdminLoanProduct => ({
  id: String(row.id),
  slug: row.slug,
  name: row.name,
  institution: row.institution,
  description: row.description,
  minAmount: formatAmount(row.minAmountMinor, SCALE),
  maxAmount: formatAmount(row.maxAmountMinor, SCALE),
  periods: [...row.periods].sort((a, b) => a - b),
  dailyRatePpm: row.dailyRatePpm,
  overdueRatePpm: row.overdueRatePpm,
  method: row.method as LoanMethod,
  enabled: row.enabled,
  sort: row.sort,
});

/** Every product, enabled or not (the client lists only the enabled ones). */
export async function listAdminLoanProducts(db: Executor): Promise<AdminLoanProduct[]> {
  const rows = await db
    .select()
    .from(loanProducts)
    .orderBy(asc(loanProducts.sort), asc(loanProducts.id))
    .limit(LOAN_PRODUCTS_MAX);
  return rows.map(adminLoanProductView);
}

export async function saveLoanProduct(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: LoanProductSave,
): Promise<AdminLoanProduct> {
  const values = {
    slug: input.slug,
    name: input.name,
    institution: input.institution,
    description: input.description,
    minAmountMinor: amountOf(input.minAmount, LOAN_ASSET, 'minAmount'),
    maxAmountMinor: amountOf(input.maxAmount, LOAN_ASSET, 'maxAmount'),
    periods: [...input.periods].sort((a, b) => a - b),
    dailyRatePpm: input.dailyRatePpm,
    overdueRatePpm: input.overdueRatePpm,
    method: input.method,
    enabled: input.enabled,
    sort: input.sort,
  };
  try {
    return await db.transaction(async (tx) => {
      if (input.id === undefined) {
        const [created] = await tx
          .insert(loanProducts)
          .values({ ...values, createdAt: now, updatedAt: now })
          .returning();
        if (!created) throw new Error('loan product insert returned no row');
        await audit(tx, now, operator, {
          action: 'loan_product.create',
          targetType: 'loan_product',
          targetId: created.id,
          after: adminLoanProductView(created),
        });
        return adminLoanProductView(created);
      }
      const id = Number(input.id);
      const [before] = await tx
        .select()
        .from(loanProducts)
        .where(eq(loanProducts.id, id))
        .for('update');
      if (!before) throw new AppError('LOAN_PRODUCT_NOT_FOUND', {}, 404);
      const [after] = await tx
        .update(loanProducts)
        .set({ ...values, updatedAt: now })
        .where(eq(loanProducts.id, id))
        .returning();
      if (!after) throw new Error('loan product update returned no row');
      await audit(tx, now, operator, {
        action: 'loan_product.update',
        targetType: 'loan_product',
        targetId: id,
        before: adminLoanProductView(before),
        after: adminLoanProductView(after),
      });
      return adminLoanProductView(after);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'loan_products_slug_key'))
      throw new AppError('LOAN_PRODUCT_SLUG_TAKEN', {}, 409, 'slug');
    throw error;
  }
}
