import { cardDepositListSchema } from '@tradewind/contract/card-deposit';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const cardDepositsQueryKey = ['card-deposit', 'list'] as const;

export const getCardDeposits = (cursor?: string) =>
  http.get('/api/v1/card-deposits', { params: { cursor }, schema: cardDepositListSchema });

/** The user's deposits, newest first, a page at a time. */
export function useCardDeposits() {
  return useInfiniteQuery({
    queryKey: cardDepositsQueryKey,
    queryFn: ({ pageParam }) => getCardDeposits(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
