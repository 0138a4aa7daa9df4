import { sharedSettingsSchema } from '@tradewind/contract/operator';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const sharedSettingsQueryKey = ['admin', 'settings', 'shared'] as const;

/** The install-wide settings every node applies, and their newest changes. */
export const getSharedSettings = () =>
  http.get('/settings/shared', { schema: sharedSettingsSchema });

export const useSharedSettings = () =>
  useQuery({ queryKey: sharedSettingsQueryKey, queryFn: getSharedSettings });
