import type { AdminPeriod, PeriodSave } from '@tradewind/contract/catalog';
import { CONTRACT_ASSET } from '@tradewind/contract/instant';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';
import { asc, eq } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { amountOf } from '../wallet/service.ts';
import { contractPeriods } from './tables.ts';

/**
 * Contract periods as the console edits them (issue 7). An order copies its period's
 * terms when it is placed (contract_orders.period_seconds, payout_rate_ppm, fee_rate_ppm,
 * stake and fee), so a change here only affects orders placed after it.
 * Raises CONTRACT_PERIOD_NOT_FOUND and AMOUNT_PRECISION.
 */

const PERIODS_MAX = 100;
const SCALE = ASSETS[CONTRACT_ASSET].scale;

type PeriodRow = typeof contractPeriods.$inferSelect;

const adminPeriodView = (row: PeriodRow): AdminPeriod => ({
  id: String(row.id),
  seconds: row.seconds,
  payoutRatePpm: row.payoutRatePpm,
  feeRatePpm: row.feeRatePpm,
  minStake: formatAmount(row.minStakeMinor, SCALE),
  maxStake: formatAmount(row.maxStakeMinor, SCALE),
  enabled: row.active,
  sort: row.sortOrder,
});

/** Every period, enabled or not, in the order the client lists them. */
export async function listAdminPeriods(db: Executor): Promise<AdminPeriod[]> {
  const rows = await db
    .select()
    .from(contractPeriods)
    .orderBy(asc(contractPeriods.sortOrder), asc(contractPeriods.seconds))
    .limit(PERIODS_MAX);
  return rows.map(adminPeriodView);
}

/** Creates (no `id`) or edits a period in one transaction with its audit entry. */
export async function savePeriod(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: PeriodSave,
): Promise<AdminPeriod> {
  const values = {
    seconds: input.seconds,
    payoutRatePpm: input.payoutRatePpm,
    feeRatePpm: input.feeRatePpm,
    minStakeMinor: amountOf(input.minStake, CONTRACT_ASSET, 'minStake'),
    maxStakeMinor: amountOf(input.maxStake, CONTRACT_ASSET, 'maxStake'),
    active: input.enabled,
    sortOrder: input.sort,
  };
  return db.transaction(async (tx) => {
    if (input.id === undefined) {
      const [created] = await tx.insert(contractPeriods).values(values).returning();
      if (!created) throw new Error('period insert returned no row');
      await audit(tx, now, operator, {
        action: 'contract_period.create',
        targetType: 'contract_period',
        targetId: created.id,
        after: adminPeriodView(created),
      });
      return adminPeriodView(created);
    }
    const id = Number(input.id);
    const [before] = await tx
      .select()
      .from(contractPeriods)
      .where(eq(contractPeriods.id, id))
      .for('update');
    if (!before) throw new AppError('CONTRACT_PERIOD_NOT_FOUND', {}, 404);
    const [after] = await tx
      .update(contractPeriods)
      .set(values)
      .where(eq(contractPeriods.id, id))
      .returning();
    if (!after) throw new Error('period update returned no row');
    await audit(tx, now, operator, {
      action: 'contract_period.update',
      targetType: 'contract_period',
      targetId: id,
      before: adminPeriodView(before),
      after: adminPeriodView(after),
    });
    return adminPeriodView(after);
  });
}
