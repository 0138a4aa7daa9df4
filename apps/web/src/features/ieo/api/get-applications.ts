import { ieoApplicationListSchema } from '@tradewind/contract/ieo';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const ieoApplicationsQueryKey = ['ieo', 'applications'] as const;

export const getIeoApplications = () =>
  http.get('/api/v1/ieo/applications', { schema: ieoApplicationListSchema });

export function useIeoApplications() {
  return useQuery({
    queryKey: ieoApplicationsQueryKey,
    queryFn: getIeoApplications,
    refetchOnMount: 'always',
  });
}
