import { shopOrdersSchema } from '@tradewind/contract/shop';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const shopOrdersQueryKey = ['shop', 'orders'] as const;

export const getShopOrders = () => http.get('/api/v1/shop/orders', { schema: shopOrdersSchema });

export function useShopOrders() {
  return useQuery({
    queryKey: shopOrdersQueryKey,
    queryFn: getShopOrders,
    refetchOnMount: 'always',
  });
}
