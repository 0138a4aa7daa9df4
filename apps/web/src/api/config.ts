import { publicConfigSchema } from '@tradewind/contract/config';
import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';

export const configQueryKey = ['config'] as const;

export function getConfig() {
  return http.get('/api/v1/config', { schema: publicConfigSchema });
}

export function useConfig() {
  return useQuery({ queryKey: configQueryKey, queryFn: getConfig, staleTime: 5 * 60_000 });
}
