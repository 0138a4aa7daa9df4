import { withdrawalOptionsSchema } from '@tradewind/contract/withdrawal';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const withdrawalOptionsQueryKey = ['withdrawals', 'options'] as const;

export const getWithdrawalOptions = () =>
  http.get('/api/v1/withdrawals/options', { schema: withdrawalOptionsSchema });

/** Refetched on every visit: the user may have just set a password, linked a card or been verified. */
export function useWithdrawalOptions() {
  return useQuery({
    queryKey: withdrawalOptionsQueryKey,
    queryFn: getWithdrawalOptions,
    refetchOnMount: 'always',
  });
}
