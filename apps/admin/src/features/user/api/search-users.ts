import {
  type AdjustmentDecision,
  type AdjustmentRequest,
  type AdjustmentStatus,
  adjustmentListSchema,
  adjustmentSchema,
  adminOrdersSchema,
  adminPostingsSchema,
  adminUserDetailSchema,
  freezeResultSchema,
  userSearchSchema,
} from '@tradewind/contract/user-admin';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@admin/api/client';

/** The Users section's endpoints (server: apps/server/src/modules/user/admin-routes.ts). */

const keys = {
  all: ['users'] as const,
  search: (q: string) => ['users', 'search', q] as const,
  detail: (uid: string) => ['users', 'detail', uid] as const,
  postings: (uid: string) => ['users', 'postings', uid] as const,
  orders: (uid: string) => ['users', 'orders', uid] as const,
  adjustments: (status: AdjustmentStatus | 'all') => ['users', 'adjustments', status] as const,
};

const nextCursor = (page: { nextCursor: string | null }) => page.nextCursor ?? undefined;

export function useUserSearch(q: string) {
  return useInfiniteQuery({
    queryKey: keys.search(q),
    enabled: q.length > 0,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/users/search', userSearchSchema, { q, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: nextCursor,
  });
}

export function useUserDetail(uid: string) {
  return useQuery({ queryKey: keys.detail(uid), queryFn: () => api.get('/users/detail', adminUserDetailSchema, { uid }) });
}

export function useUserPostings(uid: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: keys.postings(uid),
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/users/postings', adminPostingsSchema, { uid, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: nextCursor,
  });
}

export function useUserOrders(uid: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: keys.orders(uid),
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/users/orders', adminOrdersSchema, { uid, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: nextCursor,
  });
}

export function useSetFrozen(uid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ frozen, reason }: { frozen: boolean; reason: string }) => api.post(frozen ? '/users/freeze' : '/users/unfreeze', freezeResultSchema, { uid, reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useRequestAdjustment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: AdjustmentRequest) => api.post('/users/adjustments', adjustmentSchema, request),
    onSuccess: () => client.invalidateQueries({ queryKey: ['users', 'adjustments'] }),
  });
}

export function useAdjustments(status: AdjustmentStatus | 'all') {
  return useInfiniteQuery({
    queryKey: keys.adjustments(status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.get('/users/adjustments', adjustmentListSchema, { ...(status === 'all' ? {} : { status }), ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: nextCursor,
  });
}

export function useDecideAdjustment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (decision: AdjustmentDecision) => api.post('/users/adjustments/decide', adjustmentSchema, decision),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
