import { adminWithdrawalSchema } from '@tradewind/contract/withdrawal';
import { http } from '@/api/http.ts';
import { type QueueDecision, useQueueAction } from '@/api/queue-action.ts';
import { withdrawalQueueKey } from './get-withdrawal-queue.ts';

export const reviewWithdrawal = (body: QueueDecision) =>
  http.post('/withdrawals/review', body, { schema: adminWithdrawalSchema });

/** Approve (the only, first or second approval; the server decides which) or reject with a reason: the funds are released. */
export const useReviewWithdrawal = () => useQueueAction(withdrawalQueueKey(), reviewWithdrawal);
