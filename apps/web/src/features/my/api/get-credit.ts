import { creditSchema } from '@tradewind/contract/credit';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const creditQueryKey = ['credit'] as const;

export const getCredit = () => http.get('/api/v1/credit', { schema: creditSchema });

export function useCredit() {
  return useQuery({ queryKey: creditQueryKey, queryFn: getCredit });
}
