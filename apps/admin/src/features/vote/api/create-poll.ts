import { type VotePollCreate, votePollAdminSchema } from '@tradewind/contract/vote';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { pollsQueryKey } from './get-polls.ts';

export const createPoll = (body: VotePollCreate) =>
  http.post('/votes/create', body, { schema: votePollAdminSchema });

export function useCreatePoll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPoll,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pollsQueryKey }),
  });
}
