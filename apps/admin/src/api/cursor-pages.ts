import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';

/** A list the server pages with `nextCursor` (null on the last page), a page at a time. */
export function useCursorPages<P extends { nextCursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  enabled = true,
) {
  return useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
