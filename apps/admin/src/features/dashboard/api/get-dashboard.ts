import { dashboardSchema } from '@tradewind/contract/dashboard';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const dashboardQueryKey = ['admin', 'dashboard'] as const;

export const getDashboard = () => http.get('/dashboard', { schema: dashboardSchema });

/** The overview, fresh each minute while it is open. */
export const useDashboard = () =>
  useQuery({ queryKey: dashboardQueryKey, queryFn: getDashboard, refetchInterval: 60_000 });
