import { redeemBonusCodeResultSchema } from '@tradewind/contract/invite';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { balancesQueryKey } from '@/api/balances.ts';
import { http } from '@/api/http.ts';

export const redeemBonusCode = (code: string, idempotencyKey: string) =>
  http.post(
    '/api/v1/bonus-codes/redeem',
    { code },
    { headers: { 'idempotency-key': idempotencyKey }, schema: redeemBonusCodeResultSchema },
  );

/** A reward lands in the spot account: balances and the funds detail are stale after it. */
export function useRedeemBonusCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, idempotencyKey }: { code: string; idempotencyKey: string }) =>
      redeemBonusCode(code, idempotencyKey),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: balancesQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['funds'] }),
      ]),
  });
}
