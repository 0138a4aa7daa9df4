import { tickersSchema } from '@tradewind/contract/market';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { tickersQueryKey } from '@/api/query-keys.ts';

/** Every instrument's ticker; live messages on `ticker.<symbol>` keep it current (api/realtime-cache.ts). */
export const getTickers = () => http.get('/api/v1/market/tickers', { schema: tickersSchema });

export function useTickers() {
  return useQuery({ queryKey: tickersQueryKey, queryFn: getTickers, staleTime: 30_000 });
}
