import { type BroadcastRequest, broadcastResultSchema } from '@tradewind/contract/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { broadcastsQueryKey } from './get-broadcasts.ts';

/** A message to every user in their language (English where theirs is missing); the reply counts the recipients. */
export const sendBroadcast = (body: BroadcastRequest) =>
  http.post('/messages/broadcast', body, { schema: broadcastResultSchema });

export function useSendBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendBroadcast,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastsQueryKey }),
  });
}
