import { adminWithdrawalSchema } from '@tradewind/contract/withdrawal';
import { http } from '@/api/http.ts';
import { useQueueAction } from '@/api/queue-action.ts';
import { withdrawalQueueKey } from './get-withdrawal-queue.ts';

export const completeWithdrawal = (body: { id: string; txid: string }) =>
  http.post('/withdrawals/complete', body, { schema: adminWithdrawalSchema });

/** The transfer went out: record its transaction id (the amount leaves, the fee is earned). */
export const useCompleteWithdrawal = () => useQueueAction(withdrawalQueueKey(), completeWithdrawal);
