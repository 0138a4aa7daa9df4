import { type BonusCodeDecision, bonusCodeViewSchema } from '@tradewind/contract/invite';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { bonusCodesQueryKey } from './get-bonus-codes.ts';

/** A second admin approves a code above the threshold (then it can be redeemed) or rejects it. */
export const decideBonusCode = (body: BonusCodeDecision) =>
  http.post('/bonus-codes/decide', body, { schema: bonusCodeViewSchema });

export function useDecideBonusCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideBonusCode,
    onSuccess: () => client.invalidateQueries({ queryKey: bonusCodesQueryKey }),
  });
}
