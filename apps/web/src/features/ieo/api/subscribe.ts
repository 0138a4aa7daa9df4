import { type IeoSubscribeRequest, ieoApplicationSchema } from '@tradewind/contract/ieo';
import { http } from '@/api/http.ts';

/** Locks offer price × quantity in spot USDT until the allocation. */
export const subscribeIeo = (request: IeoSubscribeRequest, idempotencyKey: string) =>
  http.post('/api/v1/ieo/subscribe', request, {
    headers: { 'idempotency-key': idempotencyKey },
    schema: ieoApplicationSchema,
  });
