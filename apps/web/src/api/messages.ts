import { unreadCountSchema } from '@tradewind/contract/messages';
import { useQuery } from '@tanstack/react-query';
import { useChannel } from './realtime.ts';
import { http } from './http.ts';
import { BROADCAST_CHANNEL, unreadQueryKey } from './query-keys.ts';

/**
 * The unread-messages badge, shared by My's messages entry and Home's bell. New messages
 * arrive over the socket (`message.new` on the user's channel, or the broadcast channel),
 * which refreshes every ['messages', …] query (api/realtime-cache.ts).
 */
export const getUnreadCount = () =>
  http.get('/api/v1/messages/unread', { schema: unreadCountSchema });

export function useUnreadCount() {
  useChannel(BROADCAST_CHANNEL);
  return useQuery({ queryKey: unreadQueryKey, queryFn: getUnreadCount, staleTime: 30_000 });
}
