import { type AdjustmentStatus, adjustmentListSchema } from '@tradewind/contract/user-admin';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';
import { userKeys } from './user-keys.ts';

export const getAdjustments = (status: AdjustmentStatus | 'all', cursor?: string) =>
  http.get('/users/adjustments', {
    schema: adjustmentListSchema,
    params: { status: status === 'all' ? undefined : status, cursor },
  });

export const useAdjustments = (status: AdjustmentStatus | 'all') =>
  useCursorPages(userKeys.adjustments(status), (cursor) => getAdjustments(status, cursor));
