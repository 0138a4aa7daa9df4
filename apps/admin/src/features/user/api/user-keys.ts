import type { AdjustmentStatus } from '@tradewind/contract/user-admin';

/** The Users section's query keys (server: apps/server/src/modules/user/admin-routes.ts); a change to a user reloads them all. */
export const userKeys = {
  all: ['users'] as const,
  search: (q: string) => ['users', 'search', q] as const,
  detail: (uid: string) => ['users', 'detail', uid] as const,
  postings: (uid: string) => ['users', 'postings', uid] as const,
  orders: (uid: string) => ['users', 'orders', uid] as const,
  adjustments: (status: AdjustmentStatus | 'all') => ['users', 'adjustments', status] as const,
};
