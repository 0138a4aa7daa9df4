import { instrumentsSchema } from '@tradewind/contract/market';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n.ts';
import { http } from '@/api/http.ts';
import { instrumentsQueryKey } from '@/api/query-keys.ts';

export const getInstruments = () =>
  http.get('/api/v1/market/instruments', { schema: instrumentsSchema });

export function useInstruments() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: instrumentsQueryKey(i18n.language),
    queryFn: getInstruments,
    staleTime: 60 * 60_000,
  });
}
