import { kycOverviewSchema } from '@tradewind/contract/kyc';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const kycQueryKey = ['kyc'] as const;

export const getKyc = () => http.get('/api/v1/kyc', { schema: kycOverviewSchema });

export function useKyc() {
  return useQuery({ queryKey: kycQueryKey, queryFn: getKyc });
}
