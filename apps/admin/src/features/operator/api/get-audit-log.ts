import { auditListSchema } from '@tradewind/contract/operator';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export type AuditFilter = {
  action?: string;
  operator?: string;
  targetType?: string;
  targetId?: string;
};
const PAGE = 100;

export const getAuditLog = (filter: AuditFilter, beforeId?: string) =>
  http.get('/audit', { schema: auditListSchema, params: { ...filter, beforeId } });

/** Newest first, a page of PAGE at a time. */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: ['admin', 'audit', filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => getAuditLog(filter, pageParam),
    getNextPageParam: (last) => (last.items.length >= PAGE ? last.items.at(-1)?.id : undefined),
  });
}
