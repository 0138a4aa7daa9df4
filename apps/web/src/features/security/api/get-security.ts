import { securityOverviewSchema } from '@tradewind/contract/security';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const securityQueryKey = ['security'] as const;

export const getSecurity = () => http.get('/api/v1/security', { schema: securityOverviewSchema });

export function useSecurity() {
  return useQuery({ queryKey: securityQueryKey, queryFn: getSecurity, refetchOnMount: 'always' });
}
