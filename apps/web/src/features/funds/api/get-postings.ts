import { FUNDS_PAGE_SIZE_DEFAULT, fundsPageSchema } from '@tradewind/contract/funds';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Params } from '@tradewind/http-client/params';
import { http } from '@/api/http.ts';

export const postingsQueryKey = (filter: Params) => ['funds', 'postings', filter] as const;

/** One page of the funds detail; arrays (several types) go as repeated `type` keys. */
export const getPostings = (filter: Params, cursor: string | undefined) =>
  http.get('/api/v1/funds/postings', {
    params: { ...filter, cursor, limit: FUNDS_PAGE_SIZE_DEFAULT },
    schema: fundsPageSchema,
  });

export function usePostings(filter: Params) {
  return useInfiniteQuery({
    queryKey: postingsQueryKey(filter),
    queryFn: ({ pageParam }) => getPostings(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
