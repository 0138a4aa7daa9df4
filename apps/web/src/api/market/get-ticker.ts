import { tickerSchema } from '@tradewind/contract/market';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { tickerQueryKey } from '@/api/query-keys.ts';

export const getTicker = (symbol: string) =>
  http.get('/api/v1/market/ticker', { params: { symbol }, schema: tickerSchema });

/** One instrument's ticker; live messages replace it as they arrive. */
export function useTicker(symbol: string) {
  return useQuery({
    queryKey: tickerQueryKey(symbol),
    queryFn: () => getTicker(symbol),
    staleTime: 30_000,
  });
}
