import { moneyPasswordStatusSchema } from '@tradewind/contract/money-password';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const moneyPasswordsQueryKey = ['money-passwords'] as const;

export const getMoneyPasswords = () =>
  http.get('/api/v1/money-passwords', { schema: moneyPasswordStatusSchema });

export function useMoneyPasswords() {
  return useQuery({
    queryKey: moneyPasswordsQueryKey,
    queryFn: getMoneyPasswords,
    refetchOnMount: 'always',
  });
}
