import { miningQueueItemSchema } from '@tradewind/contract/mining';
import { http } from '@/api/http.ts';
import { type QueueDecision, useQueueAction } from '@/api/queue-action.ts';
import { rentalQueueKey } from './get-rental-queue.ts';

export const decideRental = (body: QueueDecision) =>
  http.post('/mining/rentals/decide', body, { schema: miningQueueItemSchema });

/** Approve (the rental starts now) or reject with a reason (the payment is refunded); the item then leaves the queue. */
export const useDecideRental = () => useQueueAction(rentalQueueKey, decideRental);
