import { tasksSchema } from '@tradewind/contract/tasks';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const tasksQueryKey = ['tasks'] as const;

export const getTasks = () => http.get('/api/v1/tasks', { schema: tasksSchema });

export function useTasks() {
  return useQuery({ queryKey: tasksQueryKey, queryFn: getTasks, refetchOnMount: 'always' });
}
