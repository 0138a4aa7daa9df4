import { addressBookSchema } from '@tradewind/contract/shop';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { addressesQueryKey } from './get-addresses.ts';

export const deleteAddress = (id: string) =>
  http.post('/api/v1/shop/addresses/delete', { id }, { schema: addressBookSchema });

export function useDeleteAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}
