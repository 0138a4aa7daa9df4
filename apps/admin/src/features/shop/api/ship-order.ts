import { type ShipOrderRequest, shopOrderSchema } from '@tradewind/contract/shop';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { shopOrdersQueryKey } from './get-shop-orders.ts';

/** Marks an order shipped with the tracking note the user will read (audited). */
export const shipOrder = (body: ShipOrderRequest) =>
  http.post('/shop/orders/ship', body, { schema: shopOrderSchema });

export function useShipOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: shipOrder,
    onSuccess: () => client.invalidateQueries({ queryKey: shopOrdersQueryKey }),
  });
}
