import { broadcastListSchema } from '@tradewind/contract/messages';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const broadcastsQueryKey = ['admin', 'broadcasts'] as const;

/** What was sent to every user, newest first, with who sent it. */
export const getBroadcasts = () =>
  http.get('/messages/broadcasts', { schema: broadcastListSchema });

export const useBroadcasts = () =>
  useQuery({ queryKey: broadcastsQueryKey, queryFn: getBroadcasts });
