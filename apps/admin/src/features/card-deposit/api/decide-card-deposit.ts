import { cardDepositQueueItemSchema } from '@tradewind/contract/card-deposit';
import { http } from '@/api/http.ts';
import { type QueueDecision, useQueueAction } from '@/api/queue-action.ts';
import { cardDepositQueueKey } from './get-card-deposit-queue.ts';

export const decideCardDeposit = (body: QueueDecision) =>
  http.post('/card-deposits/decide', body, { schema: cardDepositQueueItemSchema });

/** Confirm (the user is credited through the ledger) or reject with a reason; the item then leaves the queue. */
export const useDecideCardDeposit = () => useQueueAction(cardDepositQueueKey, decideCardDeposit);
