import { OPERATOR_ROLES } from '@tradewind/contract/operator';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getSessionToken } from '@/lib/session-token.ts';
import { http } from './http.ts';

export const meSchema = z.object({ username: z.string(), role: z.enum(OPERATOR_ROLES) });
export const meQueryKey = ['admin', 'me'] as const;

export const getMe = () => http.get('/me', { schema: meSchema });

/** The signed-in operator; undefined while loading or when there is no session. */
export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: getMe,
    enabled: getSessionToken() !== null,
    retry: false,
    staleTime: 60_000,
  });
}
