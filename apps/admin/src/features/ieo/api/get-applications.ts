import { ieoAdminApplicationsSchema } from '@tradewind/contract/ieo';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { projectsQueryKey } from './get-projects.ts';

/** A project's applications and, after the allocation, what each was given and the totals. */
export const getApplications = (id: string) =>
  http.get('/ieo/applications', { schema: ieoAdminApplicationsSchema, params: { id } });

export const useApplications = (id: string) =>
  useQuery({
    queryKey: [...projectsQueryKey, 'applications', id],
    queryFn: () => getApplications(id),
  });
