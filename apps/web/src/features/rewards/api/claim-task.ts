import { type TaskId, claimTaskResultSchema } from '@tradewind/contract/tasks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { balancesQueryKey } from '@/api/balances.ts';
import { http } from '@/api/http.ts';
import { tasksQueryKey } from './get-tasks.ts';

export const claimTask = (task: TaskId, idempotencyKey: string) =>
  http.post(
    '/api/v1/tasks/claim',
    { task },
    { headers: { 'idempotency-key': idempotencyKey }, schema: claimTaskResultSchema },
  );

/** A reward is points or USDT in the spot account: the tasks, points and balances are stale after it. */
export function useClaimTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ task, idempotencyKey }: { task: TaskId; idempotencyKey: string }) =>
      claimTask(task, idempotencyKey),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: tasksQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['points'] }),
        queryClient.invalidateQueries({ queryKey: balancesQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['funds'] }),
      ]),
  });
}
