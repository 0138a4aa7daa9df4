import { type LoanProductSave, adminLoanProductSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** Creates a loan product, or changes the one with `id` (loans already taken keep their terms). */
export const saveLoanProduct = (body: LoanProductSave) =>
  http.post('/loans/products', body, { schema: adminLoanProductSchema });
