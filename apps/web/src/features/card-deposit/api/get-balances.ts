import { balancesSchema } from '@tradewind/contract/wallet';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const balancesQueryKey = ['wallet', 'balances'] as const;

export const getBalances = () => http.get('/api/v1/wallet/balances', { schema: balancesSchema });

export function useBalances() {
  return useQuery({ queryKey: balancesQueryKey, queryFn: getBalances });
}
