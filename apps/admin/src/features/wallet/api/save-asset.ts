import { type AssetSave, adminAssetSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** Changes an asset's settings (never its scale, nor a balance); `code` is the edited row's, as the server listed it. */
export const saveAsset = (body: Omit<AssetSave, 'code'> & { code: string }) =>
  http.post('/wallet/assets', body, { schema: adminAssetSchema });
