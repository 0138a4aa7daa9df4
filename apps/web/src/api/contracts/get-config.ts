import { contractConfigSchema } from '@tradewind/contract/instant';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n.ts';
import { http } from '@/api/http.ts';
import { contractConfigQueryKey } from '@/api/query-keys.ts';

export const getContractConfig = () =>
  http.get('/api/v1/contracts/config', { schema: contractConfigSchema });

export function useContractConfig() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: contractConfigQueryKey(i18n.language),
    queryFn: getContractConfig,
    staleTime: 60_000,
  });
}
