import { adminWithdrawalSchema, withdrawalQueueSchema } from '@tradewind/contract/withdrawal';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@admin/api/client';

export type QueueStatus = 'under_review' | 'processing';
const QUEUE_PAGE_SIZE = 100;
export const withdrawalQueueKey = (status?: QueueStatus) => ['admin', 'withdrawal', 'queue', ...(status ? [status] : [])] as const;

/** Withdrawals to review (under review) or to pay out (processing), oldest first. */
export function useWithdrawalQueue(status: QueueStatus) {
  return useInfiniteQuery({
    queryKey: withdrawalQueueKey(status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/withdrawals/queue', withdrawalQueueSchema, { status, afterId: pageParam }),
    getNextPageParam: (last) => (last.items.length >= QUEUE_PAGE_SIZE ? last.items.at(-1)?.id : undefined),
  });
}

function useQueueMutation<I>(mutationFn: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: withdrawalQueueKey() }) });
}

/** Approve (the only, first or second approval; the server decides which) or reject with a reason: the funds are released. */
export const useReviewWithdrawal = () =>
  useQueueMutation((input: { id: string; decision: 'approve' | 'reject'; reason?: string }) => api.post('/withdrawals/review', adminWithdrawalSchema, input));

/** The transfer went out: record its transaction id (the amount leaves, the fee is earned). */
export const useCompleteWithdrawal = () => useQueueMutation((input: { id: string; txid: string }) => api.post('/withdrawals/complete', adminWithdrawalSchema, input));

/** The transfer did not go out: the reason, and the funds are released at once. */
export const useFailWithdrawal = () => useQueueMutation((input: { id: string; reason: string }) => api.post('/withdrawals/fail', adminWithdrawalSchema, input));
