import { cardDepositConfigSchema } from '@tradewind/contract/card-deposit';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const cardDepositConfigQueryKey = ['card-deposit', 'config'] as const;

export const getCardDepositConfig = () =>
  http.get('/api/v1/card-deposits/config', { schema: cardDepositConfigSchema });

export function useCardDepositConfig() {
  return useQuery({
    queryKey: cardDepositConfigQueryKey,
    queryFn: getCardDepositConfig,
    staleTime: 5 * 60_000,
  });
}
