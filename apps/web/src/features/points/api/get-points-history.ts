import { pointsHistorySchema } from '@tradewind/contract/points';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

/** Shares its prefix with the check-in card's recent list, so a check-in refreshes both. */
export const pointsHistoryPagesQueryKey = ['points', 'history', 'pages'] as const;

const PAGE = 20;

export const getPointsHistory = (cursor?: string) =>
  http.get('/api/v1/points/history', {
    params: { limit: PAGE, ...(cursor ? { cursor } : {}) },
    schema: pointsHistorySchema,
  });

export function usePointsHistory() {
  return useInfiniteQuery({
    queryKey: pointsHistoryPagesQueryKey,
    queryFn: ({ pageParam }) => getPointsHistory(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchOnMount: 'always',
  });
}
