import { type PurchaseRequest, purchaseResultSchema } from '@tradewind/contract/shop';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { balancesQueryKey } from '@/api/balances.ts';
import { http } from '@/api/http.ts';

export const purchase = (body: PurchaseRequest, idempotencyKey: string) =>
  http.post('/api/v1/shop/purchase', body, {
    headers: { 'idempotency-key': idempotencyKey },
    schema: purchaseResultSchema,
  });

/** Points, orders and (for a reward item) balances are stale after a purchase. */
export function usePurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: PurchaseRequest; idempotencyKey: string }) =>
      purchase(body, idempotencyKey),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['shop'] }),
        queryClient.invalidateQueries({ queryKey: ['points'] }),
        queryClient.invalidateQueries({ queryKey: ['tasks'] }),
        queryClient.invalidateQueries({ queryKey: balancesQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['funds'] }),
      ]),
  });
}
