import { inviteSummarySchema } from '@tradewind/contract/invite';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const inviteQueryKey = ['invite', 'summary'] as const;

export const getInvite = () => http.get('/api/v1/invite', { schema: inviteSummarySchema });

export function useInvite() {
  return useQuery({ queryKey: inviteQueryKey, queryFn: getInvite });
}
