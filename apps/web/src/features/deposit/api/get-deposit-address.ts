import { depositAddressSchema } from '@tradewind/contract/deposit';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const depositAddressQueryKey = ['deposit', 'address'] as const;

/** The caller's own address; the server creates it on the first call. */
export const getDepositAddress = () =>
  http.get('/api/v1/deposit/address', { schema: depositAddressSchema });

export function useDepositAddress() {
  // An address never changes once given.
  return useQuery({
    queryKey: depositAddressQueryKey,
    queryFn: getDepositAddress,
    staleTime: Infinity,
  });
}
