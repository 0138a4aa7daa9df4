import { votePollAdminListSchema } from '@tradewind/contract/vote';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const pollsQueryKey = ['admin', 'polls'] as const;

/** Every poll with its results, counted from the ballots. */
export const getPolls = () => http.get('/votes', { schema: votePollAdminListSchema });

export const usePolls = () => useQuery({ queryKey: pollsQueryKey, queryFn: getPolls });
