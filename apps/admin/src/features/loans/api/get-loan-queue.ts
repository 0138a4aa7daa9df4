import { loanQueueItemSchema, loanQueueSchema } from '@tradewind/contract/loans';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@admin/api/client';

export const loanQueueKey = ['admin', 'loans', 'queue'] as const;

/** Loans under review or approved and waiting for disbursement, oldest first. */
export function useLoanQueue() {
  return useInfiniteQuery({
    queryKey: loanQueueKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/loans/queue', loanQueueSchema, { cursor: pageParam }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

const useQueueMutation = <I,>(mutationFn: (input: I) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: loanQueueKey }) });
};

/** Approve (it then waits for disbursement) or reject with a reason. */
export const useDecideLoan = () =>
  useQueueMutation((input: { id: string; decision: 'approve' | 'reject'; reason?: string }) => api.post('/loans/decide', loanQueueItemSchema, input));

/**
 * Disburse an approved loan: the amount is credited to the user through the ledger. Operators
 * never mark a loan repaid; only the borrower's repayment does.
 */
export const useDisburseLoan = () => useQueueMutation((id: string) => api.post('/loans/disburse', loanQueueItemSchema, { id }));
