import { okSchema } from '@tradewind/contract/envelope';
import { http } from '@/api/http.ts';

export const logout = () => http.post('/api/v1/auth/logout', undefined, { schema: okSchema });
