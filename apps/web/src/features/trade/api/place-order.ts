import { type PlaceOrderRequest, placeOrderResponseSchema } from '@tradewind/contract/instant';
import { http } from '@/api/http.ts';
import { learnServerTime } from '@/lib/server-clock.ts';

/** POST /contracts/orders: locks stake + fee in the futures account and records the open tick. */
export async function placeOrder(request: PlaceOrderRequest, idempotencyKey: string) {
  const result = await http.post('/api/v1/contracts/orders', request, {
    headers: { 'idempotency-key': idempotencyKey },
    schema: placeOrderResponseSchema,
  });
  learnServerTime(result.order);
  return result;
}
