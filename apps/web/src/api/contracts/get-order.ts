import { orderSchema } from '@tradewind/contract/instant';
import { useQuery } from '@tanstack/react-query';
import { learnServerTime } from '@/lib/server-clock.ts';
import { http } from '@/api/http.ts';
import { orderQueryKey } from '@/api/query-keys.ts';

export async function getOrder(id: string) {
  const order = await http.get('/api/v1/contracts/order', { params: { id }, schema: orderSchema });
  learnServerTime(order);
  return order;
}

/**
 * One order. `pollMs` refetches while set: the delivery popup and the detail screen poll
 * when the socket is down or the settled event is late.
 */
export function useOrder(id: string | null, pollMs: number | false = false) {
  return useQuery({
    queryKey: orderQueryKey(id ?? ''),
    queryFn: () => getOrder(id ?? ''),
    enabled: id !== null && /^\d{1,18}$/.test(id),
    refetchInterval: pollMs,
  });
}
