import { type MiningProductInput, miningAdminProductSchema } from '@tradewind/contract/mining';
import { http } from '@/api/http.ts';

/** Creates a miner product, or changes the one with `id` (rentals already made keep their terms). */
export const saveMinerProduct = (body: MiningProductInput) =>
  http.post('/mining/products', body, { schema: miningAdminProductSchema });
