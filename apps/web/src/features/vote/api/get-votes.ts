import { type VotePoll, type VotePollList, votePollListSchema } from '@tradewind/contract/vote';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const votesQueryKey = ['votes'] as const;

export const getVotes = () => http.get('/api/v1/votes', { schema: votePollListSchema });

export function useVotes() {
  return useQuery({ queryKey: votesQueryKey, queryFn: getVotes, refetchOnMount: 'always' });
}

/** Puts the poll a vote returned into the cached list, so the bars move at once. */
export function replacePoll(queryClient: QueryClient, poll: VotePoll): void {
  queryClient.setQueryData<VotePollList>(
    votesQueryKey,
    (list) => list && { items: list.items.map((item) => (item.id === poll.id ? poll : item)) },
  );
}
