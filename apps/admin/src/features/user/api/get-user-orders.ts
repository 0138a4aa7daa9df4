import { adminOrdersSchema } from '@tradewind/contract/user-admin';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';
import { userKeys } from './user-keys.ts';

/** The user's contract orders, newest first. */
export const getUserOrders = (uid: string, cursor?: string) =>
  http.get('/users/orders', { schema: adminOrdersSchema, params: { uid, cursor } });

export const useUserOrders = (uid: string, enabled: boolean) =>
  useCursorPages(userKeys.orders(uid), (cursor) => getUserOrders(uid, cursor), enabled);
