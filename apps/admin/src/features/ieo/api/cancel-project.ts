import { ieoProjectSchema } from '@tradewind/contract/ieo';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { projectsQueryKey } from './get-projects.ts';

/** Cancels a project before its allocation: every subscription is refunded. */
export const cancelProject = (body: { id: string; reason: string }) =>
  http.post('/ieo/cancel', body, { schema: ieoProjectSchema });

export function useCancelProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
  });
}
