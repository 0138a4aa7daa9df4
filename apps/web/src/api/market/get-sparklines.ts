import { sparklinesSchema } from '@tradewind/contract/market';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

/** Every instrument's last 24 hours, an hourly close each: the Trade list's trend lines. */
export const getSparklines = () =>
  http.get('/api/v1/market/sparklines', { schema: sparklinesSchema });

export function useSparklines() {
  // An hour's close changes once a minute at most; a new point comes once an hour.
  return useQuery({
    queryKey: ['market', 'sparklines'],
    queryFn: getSparklines,
    staleTime: 60_000,
    refetchInterval: 60_000,
  });
}
