import type { AdminAsset, AssetSave } from '@tradewind/contract/catalog';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS, ASSET_CODES, type AssetCode } from '@tradewind/contract/wallet';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { assets } from './tables.ts';

/**
 * Asset settings as the console edits them (issue 7): deposit and withdrawal switches, the
 * withdrawal fee and minimum, the deposit minimum and the confirmations. The scale never
 * changes. A withdrawal copies its fee when it is requested, so an edit only affects later
 * ones. Raises NOT_FOUND and AMOUNT_PRECISION. The console's audited save is the wallet
 * module's (wallet/catalog.ts): the ledger imports no module above it.
 */

type AssetRow = typeof assets.$inferSelect;

const adminAssetView = (row: AssetRow): AdminAsset => ({
  code: row.code,
  name: row.name,
  scale: row.scale,
  depositEnabled: row.depositEnabled,
  withdrawEnabled: row.withdrawEnabled,
  withdrawFee: formatAmount(row.withdrawFeeMinor, row.scale),
  withdrawMin: formatAmount(row.withdrawMinMinor, row.scale),
  depositMin: formatAmount(row.depositMinMinor ?? 0n, row.scale),
  confirmations: row.confirmations,
});

export async function listAdminAssets(db: Executor): Promise<AdminAsset[]> {
  const rows = await db
    .select()
    .from(assets)
    .orderBy(asc(assets.sortOrder), asc(assets.code))
    .limit(ASSET_CODES.length);
  return rows.map(adminAssetView);
}

/** An amount exact to the asset's decimals, zero allowed (a fee or a minimum). */
function minorOf(text: string, code: AssetCode, field: string): bigint {
  const minor = parseAmount(text, ASSETS[code].scale);
  if (minor === undefined || minor < 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: ASSETS[code].scale }, 422, field);
  return minor;
}

/** Updates an asset's settings in the caller's transaction (its row locked first); returns the row before and after. */
export async function updateAssetSettings(
  tx: Executor,
  input: AssetSave,
): Promise<{ before: AdminAsset; after: AdminAsset }> {
  const values = {
    depositEnabled: input.depositEnabled,
    withdrawEnabled: input.withdrawEnabled,
    withdrawFeeMinor: minorOf(input.withdrawFee, input.code, 'withdrawFee'),
    withdrawMinMinor: minorOf(input.withdrawMin, input.code, 'withdrawMin'),
    depositMinMinor: minorOf(input.depositMin, input.code, 'depositMin'),
    confirmations: input.confirmations,
  };
  const [before] = await tx.select().from(assets).where(eq(assets.code, input.code)).for('update');
  if (!before) throw new AppError('NOT_FOUND', {}, 404, 'code');
  const [after] = await tx
    .update(assets)
    .set(values)
    .where(eq(assets.code, input.code))
    .returning();
  if (!after) throw new Error('asset update returned no row');
  return { before: adminAssetView(before), after: adminAssetView(after) };
}
