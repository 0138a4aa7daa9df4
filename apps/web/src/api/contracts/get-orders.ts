import { type OrderState, ordersSchema } from '@tradewind/contract/instant';
import { useInfiniteQuery } from '@tanstack/react-query';
import { learnServerTime } from '@/lib/server-clock.ts';
import { http } from '@/api/http.ts';
import { ordersQueryKey } from '@/api/query-keys.ts';

export const ORDERS_PAGE_SIZE = 20;

export async function getOrders(state: OrderState, cursor: string | undefined) {
  const page = await http.get('/api/v1/contracts/orders', {
    params: { state, cursor, limit: ORDERS_PAGE_SIZE },
    schema: ordersSchema,
  });
  for (const order of page.items) learnServerTime(order);
  return page;
}

/** The user's orders, newest first, a page at a time; user events refresh them. */
export function useOrders(state: OrderState) {
  return useInfiniteQuery({
    queryKey: ordersQueryKey(state),
    queryFn: ({ pageParam }) => getOrders(state, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
