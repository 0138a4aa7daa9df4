import { inviteesSchema } from '@tradewind/contract/invite';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const inviteesQueryKey = ['invite', 'invitees'] as const;

const PAGE = 20;

export const getInvitees = (cursor?: string) =>
  http.get('/api/v1/invite/invitees', {
    params: { limit: PAGE, ...(cursor ? { cursor } : {}) },
    schema: inviteesSchema,
  });

export function useInvitees() {
  return useInfiniteQuery({
    queryKey: inviteesQueryKey,
    queryFn: ({ pageParam }) => getInvitees(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
