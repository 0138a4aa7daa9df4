import { type KlineInterval, klinesSchema } from '@tradewind/contract/market';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { klinesQueryKey } from '@/api/query-keys.ts';

/** How many candles the chart loads: enough to fill a phone screen several times over. */
export const KLINES_LIMIT = 300;

export const getKlines = (symbol: string, interval: KlineInterval) =>
  http.get('/api/v1/market/klines', {
    params: { symbol, interval, limit: KLINES_LIMIT },
    schema: klinesSchema,
  });

/** Candles oldest first; live messages on `kline.<symbol>.<interval>` update the newest one. */
export function useKlines(symbol: string, interval: KlineInterval) {
  return useQuery({
    queryKey: klinesQueryKey(symbol, interval),
    queryFn: () => getKlines(symbol, interval),
    staleTime: 60_000,
  });
}
