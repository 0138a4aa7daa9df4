import { adminShopOrdersSchema } from '@tradewind/contract/shop';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const shopOrdersQueryKey = ['admin', 'shop', 'orders'] as const;

export type ShopQueueStatus = 'awaiting_shipment' | 'shipped';

/** Physical points-shop orders awaiting shipment (oldest first) or shipped (newest first). */
export const getShopOrders = (status: ShopQueueStatus) =>
  http.get('/shop/orders', { schema: adminShopOrdersSchema, params: { status } });

export const useShopOrders = (status: ShopQueueStatus) =>
  useQuery({ queryKey: [...shopOrdersQueryKey, status], queryFn: () => getShopOrders(status) });
