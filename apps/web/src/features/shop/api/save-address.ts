import { type SaveAddressRequest, deliveryAddressSchema } from '@tradewind/contract/shop';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { addressesQueryKey } from './get-addresses.ts';

export const saveAddress = (body: SaveAddressRequest) =>
  http.post('/api/v1/shop/addresses', body, { schema: deliveryAddressSchema });

export function useSaveAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAddress,
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}
