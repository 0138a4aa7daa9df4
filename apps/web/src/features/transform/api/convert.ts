import { convertResponseSchema } from '@tradewind/contract/conversion';
import { http } from '@/api/http.ts';

/** Executes a quote; the key is the quote's own, so a retry of the same confirmation is one conversion. */
export const convert = (quoteId: string, idempotencyKey: string) =>
  http.post(
    '/api/v1/convert',
    { quoteId },
    { headers: { 'idempotency-key': idempotencyKey }, schema: convertResponseSchema },
  );
