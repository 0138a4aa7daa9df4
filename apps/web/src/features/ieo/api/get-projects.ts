import { ieoDetailSchema, ieoProjectListSchema } from '@tradewind/contract/ieo';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const ieoProjectsQueryKey = ['ieo', 'projects'] as const;
export const ieoDetailQueryKey = (id: string) => ['ieo', 'detail', id] as const;

export const getIeoProjects = () =>
  http.get('/api/v1/ieo/projects', { schema: ieoProjectListSchema });
export const getIeoDetail = (id: string) =>
  http.get('/api/v1/ieo/detail', { params: { id }, schema: ieoDetailSchema });

export function useIeoProjects() {
  return useQuery({
    queryKey: ieoProjectsQueryKey,
    queryFn: getIeoProjects,
    refetchOnMount: 'always',
  });
}

export function useIeoDetail(id: string) {
  return useQuery({
    queryKey: ieoDetailQueryKey(id),
    queryFn: () => getIeoDetail(id),
    refetchOnMount: 'always',
  });
}
