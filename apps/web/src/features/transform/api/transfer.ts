import { type TransferRequest, transferResponseSchema } from '@tradewind/contract/wallet';
import { http } from '@/api/http.ts';

export const transfer = (request: TransferRequest, idempotencyKey: string) =>
  http.post('/api/v1/wallet/transfer', request, {
    headers: { 'idempotency-key': idempotencyKey },
    schema: transferResponseSchema,
  });
