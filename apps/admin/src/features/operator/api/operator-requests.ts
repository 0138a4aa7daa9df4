import {
  type OperatorRequestBody,
  operatorRequestDecidedSchema,
  operatorRequestListSchema,
  operatorRequestSchema,
} from '@tradewind/contract/operator';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { operatorsQueryKey } from './get-operators.ts';

export const operatorRequestsQueryKey = ['admin', 'operator-requests'] as const;

export const getOperatorRequests = () =>
  http.get('/operators/requests', { schema: operatorRequestListSchema });

export const useOperatorRequests = () =>
  useQuery({ queryKey: operatorRequestsQueryKey, queryFn: getOperatorRequests });

/** A new operator, enabling one again or another role: nothing changes until a second admin approves. */
export const requestOperatorChange = (body: OperatorRequestBody) =>
  http.post('/operators/requests', body, { schema: operatorRequestSchema });

/** The approver's reply carries a new operator's enrolment code once (decision 0025). */
export const decideOperatorRequest = (body: {
  id: number;
  decision: 'approve' | 'reject';
  reason: string;
}) => http.post('/operators/requests/decide', body, { schema: operatorRequestDecidedSchema });

function useInvalidating<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: operatorRequestsQueryKey });
      await queryClient.invalidateQueries({ queryKey: operatorsQueryKey });
    },
  });
}

export const useRequestOperatorChange = () => useInvalidating(requestOperatorChange);
export const useDecideOperatorRequest = () => useInvalidating(decideOperatorRequest);
