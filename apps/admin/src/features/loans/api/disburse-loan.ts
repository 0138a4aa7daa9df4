import { loanQueueItemSchema } from '@tradewind/contract/loans';
import { http } from '@/api/http.ts';
import { useQueueAction } from '@/api/queue-action.ts';
import { loanQueueKey } from './get-loan-queue.ts';

export const disburseLoan = (id: string) =>
  http.post('/loans/disburse', { id }, { schema: loanQueueItemSchema });

/**
 * Disburse an approved loan: the amount is credited to the user through the ledger. Operators
 * never mark a loan repaid; only the borrower's repayment does.
 */
export const useDisburseLoan = () => useQueueAction(loanQueueKey, disburseLoan);
