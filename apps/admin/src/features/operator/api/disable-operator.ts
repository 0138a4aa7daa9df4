import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { http } from '@/api/http.ts';
import { operatorsQueryKey } from './get-operators.ts';

/** Disables an operator (their sessions end) or enables them again; the reason goes to the audit log. */
export const disableOperator = (body: { id: number; disabled: boolean; reason: string }) =>
  http.post('/operators/disable', body, { schema: z.object({ ok: z.literal(true) }) });

export function useDisableOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableOperator,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorsQueryKey }),
  });
}
