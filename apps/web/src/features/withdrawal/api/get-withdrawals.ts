import { withdrawalListSchema } from '@tradewind/contract/withdrawal';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const withdrawalsQueryKey = ['withdrawals', 'list'] as const;

export const getWithdrawals = (beforeId?: string) =>
  http.get('/api/v1/withdrawals', {
    schema: withdrawalListSchema,
    params: beforeId ? { beforeId } : undefined,
  });

/** The history, newest first, a page at a time. */
export function useWithdrawals() {
  return useInfiniteQuery({
    queryKey: withdrawalsQueryKey,
    queryFn: ({ pageParam }) => getWithdrawals(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.items.at(-1)?.id : undefined),
    refetchOnMount: 'always',
  });
}
