import { miningAdminProductListSchema } from '@tradewind/contract/mining';
import { http } from '@/api/http.ts';

export const minerProductsQueryKey = ['admin', 'catalog', 'miners'] as const;

export const getMinerProducts = () =>
  http.get('/mining/products', { schema: miningAdminProductListSchema });
