import { productSwitchesSchema } from '@tradewind/contract/products';
import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';

/**
 * Which products (loans, mining, IEO, shop) take new actions now: operators switch them off
 * in the console. Home's menu and the product pages read it to say "under development" up
 * front; the server refuses the action anyway, so a stale answer only costs a toast.
 */
export const productSwitchesQueryKey = ['products', 'switches'] as const;

export const getProductSwitches = () =>
  http.get('/api/v1/products', { schema: productSwitchesSchema });

export function useProductSwitches() {
  return useQuery({
    queryKey: productSwitchesQueryKey,
    queryFn: getProductSwitches,
    staleTime: 30_000,
  });
}
