import { FUNDS_PAGE_SIZE_DEFAULT, fundsEventsPageSchema } from '@tradewind/contract/funds';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Params } from '@tradewind/http-client/params';
import { http } from '@/api/http.ts';

export const eventsQueryKey = (filter: Params) => ['funds', 'events', filter] as const;

/** One page of the funds detail by event; arrays (several types) go as repeated `type` keys. */
export const getEvents = (filter: Params, cursor: string | undefined) =>
  http.get('/api/v1/funds/events', {
    params: { ...filter, cursor, limit: FUNDS_PAGE_SIZE_DEFAULT },
    schema: fundsEventsPageSchema,
  });

export function useEvents(filter: Params) {
  return useInfiniteQuery({
    queryKey: eventsQueryKey(filter),
    queryFn: ({ pageParam }) => getEvents(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
