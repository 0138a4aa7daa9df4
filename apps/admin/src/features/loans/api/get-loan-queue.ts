import { loanQueueSchema } from '@tradewind/contract/loans';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';

export const loanQueueKey = ['admin', 'loans', 'queue'] as const;

export const getLoanQueue = (cursor?: string) =>
  http.get('/loans/queue', { schema: loanQueueSchema, params: { cursor } });

/** Loans under review or approved and waiting for disbursement, oldest first. */
export const useLoanQueue = () => useCursorPages(loanQueueKey, getLoanQueue);
