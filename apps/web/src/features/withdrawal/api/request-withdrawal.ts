import { type CryptoWithdrawalRequest, withdrawalSchema } from '@tradewind/contract/withdrawal';
import { http } from '@/api/http.ts';

/** Moves money: the Idempotency-Key makes a retried submission count once. */
export const requestWithdrawal = (body: CryptoWithdrawalRequest, idempotencyKey: string) =>
  http.post('/api/v1/withdrawals', body, {
    schema: withdrawalSchema,
    headers: { 'idempotency-key': idempotencyKey },
  });
