import { ieoActionResultSchema } from '@tradewind/contract/ieo';
import { http } from '@/api/http.ts';

/** Delivers an allocated project's tokens at its listing time (once: a second run changes nothing). */
export const listProject = (id: string) =>
  http.post('/ieo/list', { id }, { schema: ieoActionResultSchema });
