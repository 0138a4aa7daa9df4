import { type OperatorRequestBody, operatorRequestSchema } from '@tradewind/contract/operator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { refreshOperatorQueries } from './get-operator-requests.ts';

/** A new operator, enabling one again or another role: nothing changes until a second admin approves. */
export const requestOperatorChange = (body: OperatorRequestBody) =>
  http.post('/operators/requests', body, { schema: operatorRequestSchema });

export function useRequestOperatorChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestOperatorChange,
    onSuccess: () => refreshOperatorQueries(queryClient),
  });
}
