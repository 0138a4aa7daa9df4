import { freezeResultSchema } from '@tradewind/contract/user-admin';
import { http } from '@/api/http.ts';

export const unfreezeUser = (body: { uid: string; reason: string }) =>
  http.post('/users/unfreeze', body, { schema: freezeResultSchema });
