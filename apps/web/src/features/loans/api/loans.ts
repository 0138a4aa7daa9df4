import {
  type LoanApplyRequest,
  loanListSchema,
  loanProductListSchema,
  loanSchema,
} from '@tradewind/contract/loans';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const loanProductsQueryKey = ['loans', 'products'] as const;
export const loansQueryKey = ['loans', 'mine'] as const;

export const getLoanProducts = () =>
  http.get('/api/v1/loans/products', { schema: loanProductListSchema });

export function useLoanProducts() {
  return useQuery({ queryKey: loanProductsQueryKey, queryFn: getLoanProducts, staleTime: 30_000 });
}

export const getLoans = () => http.get('/api/v1/loans', { schema: loanListSchema });

/** The newest page of my loans; one user has few (one unsettled at a time). */
export function useLoans() {
  return useQuery({ queryKey: loansQueryKey, queryFn: getLoans });
}

export const applyForLoan = (request: LoanApplyRequest) =>
  http.post('/api/v1/loans', request, { schema: loanSchema });

/** Repays in full from spot USDT; the key makes a retried tap one repayment. */
export const repayLoan = (id: string, idempotencyKey: string) =>
  http.post(
    '/api/v1/loans/repay',
    { id },
    { headers: { 'idempotency-key': idempotencyKey }, schema: loanSchema },
  );
