import { ieoAdminProjectListSchema } from '@tradewind/contract/ieo';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const projectsQueryKey = ['admin', 'ieo'] as const;

export const getProjects = () => http.get('/ieo/projects', { schema: ieoAdminProjectListSchema });

export const useProjects = () => useQuery({ queryKey: projectsQueryKey, queryFn: getProjects });
