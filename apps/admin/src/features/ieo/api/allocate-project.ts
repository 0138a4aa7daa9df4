import { ieoActionResultSchema } from '@tradewind/contract/ieo';
import { http } from '@/api/http.ts';

/** Runs the allocation of a project whose subscription has ended (once: a second run changes nothing). */
export const allocateProject = (id: string) =>
  http.post('/ieo/allocate', { id }, { schema: ieoActionResultSchema });
