import { type CreateBonusCodeRequest, bonusCodeViewSchema } from '@tradewind/contract/invite';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { bonusCodesQueryKey } from './get-bonus-codes.ts';

/** Audited on the server; each redemption is then a ledger entry from the house's rewards account. */
export const createBonusCode = (body: CreateBonusCodeRequest) =>
  http.post('/bonus-codes', body, { schema: bonusCodeViewSchema });

export function useCreateBonusCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBonusCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bonusCodesQueryKey }),
  });
}
