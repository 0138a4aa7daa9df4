import { balancesSchema } from '@tradewind/contract/wallet';
import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';
import { balancesQueryKey } from './query-keys.ts';

/** Shared by Home (total assets) and the wallet screens. */
export { balancesQueryKey };

export const getBalances = () => http.get('/api/v1/wallet/balances', { schema: balancesSchema });

export function useBalances() {
  return useQuery({ queryKey: balancesQueryKey, queryFn: getBalances, staleTime: 5_000 });
}
