import {
  type MiningHistoryTab,
  miningRentalDetailSchema,
  miningRentalListSchema,
} from '@tradewind/contract/mining';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const miningRentalsQueryKey = ['mining', 'rentals'] as const;

export const getMiningRentals = (tab: MiningHistoryTab, cursor: string | undefined) =>
  http.get('/api/v1/mining/rentals', { params: { tab, cursor }, schema: miningRentalListSchema });

/** /MiningHis: the user's rentals for a tab, newest first, a page at a time. */
export function useMiningRentals(tab: MiningHistoryTab) {
  return useInfiniteQuery({
    queryKey: [...miningRentalsQueryKey, tab],
    queryFn: ({ pageParam }) => getMiningRentals(tab, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchOnMount: 'always',
  });
}

export const getMiningRental = (id: string) =>
  http.get('/api/v1/mining/rental', { params: { id }, schema: miningRentalDetailSchema });

/** One rental with its payouts; while it is under review or active it is looked at again every 10 s, so a payout shows up. */
export function useMiningRental(id: string | null) {
  return useQuery({
    queryKey: [...miningRentalsQueryKey, 'detail', id],
    queryFn: () => getMiningRental(id as string),
    enabled: id !== null,
    refetchInterval: (query) =>
      query.state.data &&
      (query.state.data.status === 'active' || query.state.data.status === 'under_review')
        ? 10_000
        : false,
  });
}
