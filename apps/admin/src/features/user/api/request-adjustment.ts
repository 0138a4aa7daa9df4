import { type AdjustmentRequest, adjustmentSchema } from '@tradewind/contract/user-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

/** A balance adjustment waits for a second administrator's approval; nothing moves until then. */
export const requestAdjustment = (body: AdjustmentRequest) =>
  http.post('/users/adjustments', body, { schema: adjustmentSchema });

export function useRequestAdjustment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestAdjustment,
    onSuccess: () => client.invalidateQueries({ queryKey: ['users', 'adjustments'] }),
  });
}
