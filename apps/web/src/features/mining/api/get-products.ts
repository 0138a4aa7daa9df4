import { miningProductListSchema, miningProductSchema } from '@tradewind/contract/mining';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const miningProductsQueryKey = ['mining', 'products'] as const;

export const getMiningProducts = () =>
  http.get('/api/v1/mining/products', { schema: miningProductListSchema });

export function useMiningProducts() {
  return useQuery({
    queryKey: miningProductsQueryKey,
    queryFn: getMiningProducts,
    staleTime: 30_000,
  });
}

export const getMiningProduct = (id: string) =>
  http.get('/api/v1/mining/product', { params: { id }, schema: miningProductSchema });

export function useMiningProduct(id: string | null) {
  return useQuery({
    queryKey: ['mining', 'product', id],
    queryFn: () => getMiningProduct(id as string),
    enabled: id !== null,
    staleTime: 30_000,
  });
}
