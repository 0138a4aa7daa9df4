import { withdrawalQueueSchema } from '@tradewind/contract/withdrawal';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export type QueueStatus = 'under_review' | 'processing';
const QUEUE_PAGE_SIZE = 100;
export const withdrawalQueueKey = (status?: QueueStatus) =>
  ['admin', 'withdrawal', 'queue', ...(status ? [status] : [])] as const;

export const getWithdrawalQueue = (status: QueueStatus, afterId?: string) =>
  http.get('/withdrawals/queue', { schema: withdrawalQueueSchema, params: { status, afterId } });

/** Withdrawals to review (under review) or to pay out (processing), oldest first. */
export function useWithdrawalQueue(status: QueueStatus) {
  return useInfiniteQuery({
    queryKey: withdrawalQueueKey(status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => getWithdrawalQueue(status, pageParam),
    getNextPageParam: (last) =>
      last.items.length >= QUEUE_PAGE_SIZE ? last.items.at(-1)?.id : undefined,
  });
}
