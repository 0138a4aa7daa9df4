import { type RentRequest, miningRentalSchema } from '@tradewind/contract/mining';
import { http } from '@/api/http.ts';

/** Pays for the rental from spot USDT; the key makes a retried tap one rental. */
export const rentMiner = (request: RentRequest, idempotencyKey: string) =>
  http.post('/api/v1/mining/rentals', request, {
    headers: { 'idempotency-key': idempotencyKey },
    schema: miningRentalSchema,
  });
