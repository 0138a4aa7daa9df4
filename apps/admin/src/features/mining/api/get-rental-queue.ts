import { miningQueueItemSchema, miningQueueSchema } from '@tradewind/contract/mining';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@admin/api/client';

export const miningQueueKey = ['admin', 'mining', 'queue'] as const;

/** Rentals under review, oldest first. */
export function useMiningQueue() {
  return useInfiniteQuery({
    queryKey: miningQueueKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/mining/rentals/queue', miningQueueSchema, { cursor: pageParam }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Approve (the rental starts now) or reject with a reason (the payment is refunded); the item then leaves the queue. */
export function useDecideRental() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' | 'reject'; reason?: string }) => api.post('/mining/rentals/decide', miningQueueItemSchema, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: miningQueueKey }),
  });
}
