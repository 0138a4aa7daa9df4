import { cardDepositQueueItemSchema, cardDepositQueueSchema } from '@tradewind/contract/card-deposit';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@admin/api/client';

export const cardDepositQueueKey = ['admin', 'card-deposit', 'queue'] as const;

/** Reported bank-card payments waiting to be matched with the bank statement, oldest first. */
export function useCardDepositQueue() {
  return useInfiniteQuery({
    queryKey: cardDepositQueueKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/card-deposits/queue', cardDepositQueueSchema, { cursor: pageParam }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Confirm (the user is credited through the ledger) or reject with a reason; the item then leaves the queue. */
export function useDecideCardDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' | 'reject'; reason?: string }) => api.post('/card-deposits/decide', cardDepositQueueItemSchema, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cardDepositQueueKey }),
  });
}
