import { kycQueueItemSchema, kycQueueSchema } from '@tradewind/contract/kyc';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@admin/api/client';

export const kycQueueKey = ['admin', 'kyc', 'queue'] as const;

/** Pending verifications, oldest first, a page at a time. */
export function useKycQueue() {
  return useInfiniteQuery({
    queryKey: kycQueueKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/kyc/queue', kycQueueSchema, { cursor: pageParam }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Approve, or reject with the reason the user will read; the item then leaves the queue. */
export function useDecideKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' | 'reject'; reason?: string }) => api.post('/kyc/decide', kycQueueItemSchema, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: kycQueueKey }),
  });
}
