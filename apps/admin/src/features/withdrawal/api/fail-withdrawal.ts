import { adminWithdrawalSchema } from '@tradewind/contract/withdrawal';
import { http } from '@/api/http.ts';
import { useQueueAction } from '@/api/queue-action.ts';
import { withdrawalQueueKey } from './get-withdrawal-queue.ts';

export const failWithdrawal = (body: { id: string; reason: string }) =>
  http.post('/withdrawals/fail', body, { schema: adminWithdrawalSchema });

/** The transfer did not go out: the reason, and the funds are released at once. */
export const useFailWithdrawal = () => useQueueAction(withdrawalQueueKey(), failWithdrawal);
