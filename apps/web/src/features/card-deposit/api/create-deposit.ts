import { type CardDepositRequest, cardDepositSchema } from '@tradewind/contract/card-deposit';
import { http } from '@/api/http.ts';

/** A money route: the caller keeps one Idempotency-Key per submission and reuses it on a retry. */
export const createCardDeposit = (body: CardDepositRequest, idempotencyKey: string) =>
  http.post('/api/v1/card-deposits', body, {
    schema: cardDepositSchema,
    headers: { 'idempotency-key': idempotencyKey },
  });
