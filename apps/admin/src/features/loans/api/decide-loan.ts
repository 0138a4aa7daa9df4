import { loanQueueItemSchema } from '@tradewind/contract/loans';
import { http } from '@/api/http.ts';
import { type QueueDecision, useQueueAction } from '@/api/queue-action.ts';
import { loanQueueKey } from './get-loan-queue.ts';

export const decideLoan = (body: QueueDecision) =>
  http.post('/loans/decide', body, { schema: loanQueueItemSchema });

/** Approve (it then waits for disbursement) or reject with a reason. */
export const useDecideLoan = () => useQueueAction(loanQueueKey, decideLoan);
