import { shopSchema } from '@tradewind/contract/shop';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const shopQueryKey = ['shop', 'catalogue'] as const;

export const getShop = () => http.get('/api/v1/shop', { schema: shopSchema });

export function useShop() {
  return useQuery({ queryKey: shopQueryKey, queryFn: getShop, refetchOnMount: 'always' });
}
