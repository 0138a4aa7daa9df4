import { okSchema } from '@tradewind/contract/envelope';
import { revokeOthersResponseSchema } from '@tradewind/contract/security';
import { http } from '@/api/http.ts';

export const revokeSession = (id: string) =>
  http.post('/api/v1/auth/sessions/revoke', { id }, { schema: okSchema });

export const revokeOtherSessions = () =>
  http.post('/api/v1/auth/sessions/revoke-others', undefined, {
    schema: revokeOthersResponseSchema,
  });
