import { bankCardListSchema } from '@tradewind/contract/bank-card';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const bankCardsQueryKey = ['bank-cards'] as const;

export const getBankCards = () => http.get('/api/v1/bank-cards', { schema: bankCardListSchema });

export function useBankCards() {
  return useQuery({ queryKey: bankCardsQueryKey, queryFn: getBankCards, refetchOnMount: 'always' });
}
