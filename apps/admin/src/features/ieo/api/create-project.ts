import { type IeoProjectInput, ieoProjectSchema } from '@tradewind/contract/ieo';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { projectsQueryKey } from './get-projects.ts';

export const createProject = (body: IeoProjectInput) =>
  http.post('/ieo/create', body, { schema: ieoProjectSchema });

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
  });
}
