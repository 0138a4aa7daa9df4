import {
  type Message,
  type MessageList,
  messageListSchema,
  messageSchema,
  unreadCountSchema,
} from '@tradewind/contract/messages';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { unreadQueryKey } from '@/api/query-keys.ts';

export const messageListQueryKey = ['messages', 'list'] as const;
export const messageQueryKey = (id: string) => ['messages', 'detail', id] as const;

/** The user's messages, newest first, a page at a time. */
export function useMessages() {
  return useInfiniteQuery({
    queryKey: messageListQueryKey,
    queryFn: ({ pageParam }) =>
      http.get('/api/v1/messages', { params: { cursor: pageParam }, schema: messageListSchema }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchOnMount: 'always',
  });
}

export function useMessage(id: string | null) {
  return useQuery({
    queryKey: messageQueryKey(id ?? ''),
    queryFn: () =>
      http.get('/api/v1/messages/detail', { params: { id: id ?? '' }, schema: messageSchema }),
    enabled: id !== null,
    retry: false,
  });
}

export const markRead = (id: string) =>
  http.post('/api/v1/messages/read', { id }, { schema: unreadCountSchema });
export const markAllRead = () =>
  http.post('/api/v1/messages/read-all', {}, { schema: unreadCountSchema });

/** After a mark: the badge gets the server's count, and the list shows the messages as read at once. */
export function applyRead(queryClient: QueryClient, unread: number, ids: 'all' | string[]): void {
  queryClient.setQueryData(unreadQueryKey, { unread });
  const isRead = (message: Message) => ids === 'all' || ids.includes(message.id);
  queryClient.setQueryData<InfiniteData<MessageList>>(
    messageListQueryKey,
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          unread,
          items: page.items.map((m) => (isRead(m) ? { ...m, read: true } : m)),
        })),
      },
  );
  if (ids !== 'all')
    for (const id of ids)
      queryClient.setQueryData<Message>(messageQueryKey(id), (m) => m && { ...m, read: true });
}
