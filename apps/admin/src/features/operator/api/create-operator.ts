import { type OperatorRole, operatorCreatedSchema } from '@tradewind/contract/operator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { operatorsQueryKey } from './get-operators.ts';

/** The reply holds the new operator's password and TOTP secret: shown once, never again. */
export const createOperator = (body: { username: string; role: OperatorRole }) =>
  http.post('/operators', body, { schema: operatorCreatedSchema });

export function useCreateOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOperator,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorsQueryKey }),
  });
}
