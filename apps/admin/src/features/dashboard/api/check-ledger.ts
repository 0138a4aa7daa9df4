import { ledgerCheckSchema } from '@tradewind/contract/dashboard';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { dashboardQueryKey } from './get-dashboard.ts';

/** Runs the ledger's invariant check now; the dashboard then shows its result. */
export const checkLedger = () =>
  http.post('/dashboard/ledger-check', {}, { schema: ledgerCheckSchema });

export function useCheckLedger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkLedger,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardQueryKey }),
  });
}
