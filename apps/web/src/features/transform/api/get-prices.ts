import { marketPricesSchema } from '@tradewind/contract/market';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const pricesQueryKey = ['market', 'prices'] as const;

export const getPrices = () => http.get('/api/v1/market/prices', { schema: marketPricesSchema });

/** Indicative prices while choosing; the quote is what counts. Refreshed every few seconds, only while shown. */
export function usePrices() {
  return useQuery({
    queryKey: pricesQueryKey,
    queryFn: getPrices,
    refetchInterval: 3_000,
    staleTime: 0,
  });
}
