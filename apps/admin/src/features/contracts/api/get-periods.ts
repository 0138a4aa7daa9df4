import { adminPeriodListSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

export const periodsQueryKey = ['admin', 'catalog', 'periods'] as const;

export const getPeriods = () => http.get('/contracts/periods', { schema: adminPeriodListSchema });
