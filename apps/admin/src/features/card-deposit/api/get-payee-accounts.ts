import { adminPayeeAccountListSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

export const payeeAccountsQueryKey = ['admin', 'catalog', 'payees'] as const;

export const getPayeeAccounts = () =>
  http.get('/card-deposits/payees', { schema: adminPayeeAccountListSchema });
