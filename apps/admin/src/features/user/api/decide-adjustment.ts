import { type AdjustmentDecision, adjustmentSchema } from '@tradewind/contract/user-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { userKeys } from './user-keys.ts';

/** A second administrator approves (the ledger entry is posted) or rejects with a reason. */
export const decideAdjustment = (body: AdjustmentDecision) =>
  http.post('/users/adjustments/decide', body, { schema: adjustmentSchema });

export function useDecideAdjustment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideAdjustment,
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}
