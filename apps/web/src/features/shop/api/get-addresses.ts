import { addressBookSchema } from '@tradewind/contract/shop';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const addressesQueryKey = ['shop', 'addresses'] as const;

export const getAddresses = () => http.get('/api/v1/shop/addresses', { schema: addressBookSchema });

export function useAddresses() {
  return useQuery({ queryKey: addressesQueryKey, queryFn: getAddresses });
}
