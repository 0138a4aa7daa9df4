import { votePollAdminSchema } from '@tradewind/contract/vote';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { pollsQueryKey } from './get-polls.ts';

/** Ends an open poll now; its ballots stay counted. */
export const closePoll = (body: { id: string; reason?: string }) =>
  http.post('/votes/close', body, { schema: votePollAdminSchema });

export function useClosePoll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closePoll,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pollsQueryKey }),
  });
}
