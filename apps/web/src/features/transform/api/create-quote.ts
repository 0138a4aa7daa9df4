import { type QuoteRequest, quoteSchema } from '@tradewind/contract/conversion';
import { http } from '@/api/http.ts';

/** Not a money request: a quote only prices the conversion (it is stored, valid 10 s). */
export const createQuote = (request: QuoteRequest) =>
  http.post('/api/v1/convert/quote', request, { schema: quoteSchema });
