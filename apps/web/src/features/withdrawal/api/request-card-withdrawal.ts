import { type CardWithdrawalRequest, withdrawalSchema } from '@tradewind/contract/withdrawal';
import { http } from '@/api/http.ts';

/** Moves money: the Idempotency-Key makes a retried submission count once. */
export const requestCardWithdrawal = (body: CardWithdrawalRequest, idempotencyKey: string) =>
  http.post('/api/v1/withdrawals/card', body, {
    schema: withdrawalSchema,
    headers: { 'idempotency-key': idempotencyKey },
  });
