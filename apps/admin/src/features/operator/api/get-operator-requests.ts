import { operatorRequestListSchema } from '@tradewind/contract/operator';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { operatorsQueryKey } from './get-operators.ts';

export const operatorRequestsQueryKey = ['admin', 'operator-requests'] as const;

export const getOperatorRequests = () =>
  http.get('/operators/requests', { schema: operatorRequestListSchema });

export const useOperatorRequests = () =>
  useQuery({ queryKey: operatorRequestsQueryKey, queryFn: getOperatorRequests });

/** After a request or a decision: the pending requests and the operators both change. */
export async function refreshOperatorQueries(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: operatorRequestsQueryKey });
  await queryClient.invalidateQueries({ queryKey: operatorsQueryKey });
}
