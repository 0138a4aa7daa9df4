import { depositHistorySchema } from '@tradewind/contract/deposit';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const depositHistoryQueryKey = ['deposit', 'history'] as const;

const PAGE_SIZE = 20;
/** While a deposit waits for confirmations the list refreshes itself often; otherwise now and then, so a new transfer shows up. */
const PENDING_REFRESH_MS = 5000;
const IDLE_REFRESH_MS = 20_000;

export const getDepositHistory = (cursor?: string) =>
  http.get('/api/v1/deposit/history', {
    params: { cursor, limit: PAGE_SIZE },
    schema: depositHistorySchema,
  });

export function useDepositHistory() {
  return useInfiniteQuery({
    queryKey: depositHistoryQueryKey,
    queryFn: ({ pageParam }) => getDepositHistory(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.items.some((item) => item.status === 'pending_payment'),
      )
        ? PENDING_REFRESH_MS
        : IDLE_REFRESH_MS,
  });
}
