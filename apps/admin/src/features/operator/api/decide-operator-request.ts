import { operatorRequestDecidedSchema } from '@tradewind/contract/operator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { refreshOperatorQueries } from './get-operator-requests.ts';

/** The approver's reply carries a new operator's enrolment code once (decision 0025). */
export const decideOperatorRequest = (body: {
  id: number;
  decision: 'approve' | 'reject';
  reason: string;
}) => http.post('/operators/requests/decide', body, { schema: operatorRequestDecidedSchema });

export function useDecideOperatorRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideOperatorRequest,
    onSuccess: () => refreshOperatorQueries(queryClient),
  });
}
