import { OPERATOR_ROLES } from '@tradewind/contract/operator';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, session } from '@admin/api/client';

export const meSchema = z.object({ username: z.string(), role: z.enum(OPERATOR_ROLES) });
export const ME_KEY = ['admin', 'me'] as const;

/** The signed-in operator; undefined while loading or when there is no session. */
export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: () => api.get('/me', meSchema), enabled: session.token() !== null, retry: false, staleTime: 60_000 });
}
