import { adminAssetListSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

export const assetsQueryKey = ['admin', 'catalog', 'assets'] as const;

export const getAssets = () => http.get('/wallet/assets', { schema: adminAssetListSchema });
