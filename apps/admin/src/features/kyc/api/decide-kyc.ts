import { kycQueueItemSchema } from '@tradewind/contract/kyc';
import { http } from '@/api/http.ts';
import { type QueueDecision, useQueueAction } from '@/api/queue-action.ts';
import { kycQueueKey } from './get-kyc-queue.ts';

export const decideKyc = (body: QueueDecision) =>
  http.post('/kyc/decide', body, { schema: kycQueueItemSchema });

/** Approve, or reject with the reason the user will read; the item then leaves the queue. */
export const useDecideKyc = () => useQueueAction(kycQueueKey, decideKyc);
