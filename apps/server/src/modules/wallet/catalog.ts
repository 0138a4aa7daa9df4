import type { AdminAsset, AssetSave } from '@tradewind/contract/catalog';
import type { Db } from '#platform/db.ts';
import { updateAssetSettings } from '../ledger/asset-settings.ts';
import { type OperatorContext, audit } from '../operator/service.ts';

/**
 * The console's asset editor (issue 7): the ledger changes the settings, this records who
 * changed what in the audit log, in the same transaction. Raises NOT_FOUND and AMOUNT_PRECISION.
 */
export async function saveAsset(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: AssetSave,
): Promise<AdminAsset> {
  return db.transaction(async (tx) => {
    const { before, after } = await updateAssetSettings(tx, input);
    await audit(tx, now, operator, {
      action: 'asset.update',
      targetType: 'asset',
      targetId: input.code,
      before,
      after,
    });
    return after;
  });
}
