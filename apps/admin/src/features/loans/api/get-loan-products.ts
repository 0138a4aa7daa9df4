import { adminLoanProductListSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

export const loanProductsQueryKey = ['admin', 'catalog', 'loans'] as const;

export const getLoanProducts = () =>
  http.get('/loans/products', { schema: adminLoanProductListSchema });
